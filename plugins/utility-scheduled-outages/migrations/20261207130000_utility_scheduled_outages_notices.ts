import type { Knex } from 'knex';

/**
 * The planned outages whose notice to confirm was sent (once each): a row
 * is written in the transaction that hands the notice to the pipeline.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scheduled_outage_notices', (t) => {
    t.text('outage_id').primary();
    t.text('source_key').notNullable();
    t.timestamp('sent_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('scheduled_outage_notices');
}
