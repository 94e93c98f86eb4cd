import type { Knex } from 'knex';

/**
 * The ledger drops its two foreign keys: checking each claimed row against
 * its subscription and its event cost PostgreSQL about as much as the
 * insert itself. The ledger module keeps them consistent instead (its
 * subscription gate: claims and deletes serialise on an advisory lock, a
 * subscription is deleted with its rows, and retention checks for rows
 * left without either).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE notification_delivery_ledger
    DROP CONSTRAINT IF EXISTS notification_delivery_ledger_subscription_id_foreign,
    DROP CONSTRAINT IF EXISTS notification_delivery_ledger_event_id_foreign`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DELETE FROM notification_delivery_ledger l
    WHERE NOT EXISTS (SELECT 1 FROM notification_subscriptions s WHERE s.id = l.subscription_id)
       OR NOT EXISTS (SELECT 1 FROM notification_events e WHERE e.id = l.event_id)`);
  await knex.raw(`ALTER TABLE notification_delivery_ledger
    ADD CONSTRAINT notification_delivery_ledger_subscription_id_foreign FOREIGN KEY (subscription_id) REFERENCES notification_subscriptions(id) ON DELETE CASCADE,
    ADD CONSTRAINT notification_delivery_ledger_event_id_foreign FOREIGN KEY (event_id) REFERENCES notification_events(id)`);
}
