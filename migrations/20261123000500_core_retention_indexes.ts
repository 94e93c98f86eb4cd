import type { Knex } from 'knex';

/**
 * What retention needs to stay bounded: ledger rows found by event (an
 * event is deleted only when no row references it, and deleting it checks
 * the foreign key), and settled rows found by age.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX notification_delivery_ledger_event ON notification_delivery_ledger (event_id)');
  await knex.raw(
    "CREATE INDEX notification_delivery_ledger_settled ON notification_delivery_ledger (created_at) WHERE status IN ('delivered', 'failed', 'superseded')",
  );
  await knex.raw('CREATE INDEX notification_events_created ON notification_events (created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS notification_events_created');
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_settled');
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_event');
}
