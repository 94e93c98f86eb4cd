import type { Knex } from 'knex';

/**
 * What the peer said after it took a delivery (a carrier's `undelivered`
 * report of a text) or when it refused it for good because the destination
 * is no more (a 404/410, `gone`): the outcome, the peer's code, and when.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notification_delivery_ledger', (t) => {
    t.text('outcome');
    t.text('outcome_code');
    t.timestamp('outcome_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notification_delivery_ledger', (t) => {
    t.dropColumn('outcome_at');
    t.dropColumn('outcome_code');
    t.dropColumn('outcome');
  });
}
