import type { Knex } from 'knex';

/**
 * Confirmations: a subscriber who must confirm (preferences.confirm, set
 * by an admin) confirms each urgent alert. One row per alert that asks,
 * made when its delivery is first worked:
 * - `state`: awaiting (its escalation goes on), confirmed (a link, a reply
 *   or a key said so), unconfirmed (every step went: it is on the console's
 *   "Not confirmed" list), reached (an operator reached the person);
 * - `step`: the escalation steps sent; `next_at`: when the next one (or
 *   the list) is due, on the service's clock.
 * A ledger row that asks for a confirmation names it (`confirmation_id`),
 * the alert's own and each escalation step's; a step's row carries its
 * own `destination` (the step's), read instead of the subscription's.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_confirmations', (t) => {
    t.bigIncrements('id');
    t.bigInteger('ledger_id').notNullable().unique().references('id').inTable('notification_delivery_ledger').onDelete('CASCADE');
    t.bigInteger('subscription_id').notNullable().references('id').inTable('notification_subscriptions').onDelete('CASCADE');
    t.bigInteger('event_id').notNullable();
    t.text('state').notNullable().defaultTo('awaiting');
    t.integer('step').notNullable().defaultTo(0);
    t.timestamp('next_at', { useTz: true });
    t.text('settled_via');
    t.text('settled_by');
    t.timestamp('settled_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
  await knex.raw(
    "ALTER TABLE notification_confirmations ADD CONSTRAINT notification_confirmations_state_check CHECK (state IN ('awaiting', 'confirmed', 'unconfirmed', 'reached'))",
  );
  await knex.raw("CREATE INDEX notification_confirmations_due ON notification_confirmations (next_at) WHERE state = 'awaiting'");
  await knex.raw("CREATE INDEX notification_confirmations_open ON notification_confirmations (created_at) WHERE state = 'unconfirmed'");
  await knex.raw('CREATE INDEX notification_confirmations_subscription ON notification_confirmations (subscription_id)');
  await knex.schema.alterTable('notification_delivery_ledger', (t) => {
    t.bigInteger('confirmation_id');
    t.text('destination');
  });
  await knex.raw('CREATE INDEX notification_delivery_ledger_confirmation ON notification_delivery_ledger (confirmation_id) WHERE confirmation_id IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_confirmation');
  await knex.schema.alterTable('notification_delivery_ledger', (t) => {
    t.dropColumn('destination');
    t.dropColumn('confirmation_id');
  });
  await knex.schema.dropTableIfExists('notification_confirmations');
}
