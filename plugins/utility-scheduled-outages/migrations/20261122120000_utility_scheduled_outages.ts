import type { Knex } from 'knex';

/**
 * The feed store of planned outages, the history of their detected
 * changes, and the runs that gate digests and reminders (a run is recorded
 * only once a system delivery of the digest happened).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scheduled_outages', (t) => {
    t.text('id').primary();
    t.date('outage_date').notNullable();
    t.text('start_time').notNullable();
    t.text('end_time').notNullable();
    t.text('feeder').notNullable();
    t.jsonb('areas').notNullable();
    t.text('reason');
    t.text('status').notNullable();
    t.timestamp('first_seen_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.timestamp('cancelled_at', { useTz: true });
    t.jsonb('payload').notNullable();
    t.index(['outage_date', 'status']);
  });
  await knex.schema.createTable('scheduled_outage_changes', (t) => {
    t.bigIncrements('id');
    t.text('outage_id').notNullable().references('id').inTable('scheduled_outages');
    t.text('kind').notNullable();
    t.text('source_key').notNullable();
    t.jsonb('changes').notNullable();
    t.timestamp('detected_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('scheduled_outage_digest_runs', (t) => {
    t.text('digest_type').notNullable();
    t.text('period').notNullable();
    t.text('source_key').notNullable();
    t.timestamp('sent_at', { useTz: true }).notNullable();
    t.primary(['digest_type', 'period']);
  });
  await knex.schema.createTable('scheduled_outage_reminder_runs', (t) => {
    t.date('outage_date').primary();
    t.text('source_key').notNullable();
    t.timestamp('sent_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['scheduled_outage_reminder_runs', 'scheduled_outage_digest_runs', 'scheduled_outage_changes', 'scheduled_outages']) {
    await knex.schema.dropTableIfExists(table);
  }
}
