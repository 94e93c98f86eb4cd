import type { Knex } from 'knex';

/**
 * The feed store: the current state of every outage the feed has shown,
 * and every detected change (history for analytics). Notification
 * deduplication is the ledger's job, not these tables'.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('power_outages', (t) => {
    t.text('id').primary();
    t.text('feeder').notNullable();
    t.jsonb('areas').notNullable();
    t.timestamp('time_off', { useTz: true }).notNullable();
    t.timestamp('time_restored', { useTz: true });
    t.text('cause');
    t.integer('customers_affected');
    t.timestamp('outage_notified_at', { useTz: true });
    t.timestamp('restoration_notified_at', { useTz: true });
    t.timestamp('first_seen_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.jsonb('payload').notNullable();
  });
  await knex.schema.createTable('power_outage_changes', (t) => {
    t.bigIncrements('id');
    t.text('outage_id').notNullable().references('id').inTable('power_outages');
    t.text('kind').notNullable();
    t.timestamp('detected_at', { useTz: true }).notNullable();
    t.index(['outage_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('power_outage_changes');
  await knex.schema.dropTableIfExists('power_outages');
}
