import type { Knex } from 'knex';

/**
 * What each subscriber decides (`preferences`: quiet hours, language, zone),
 * and deliveries held by quiet hours: a held ledger row (`held`, until
 * `held_until`; `held_at` on the service clock) is released with the others of its subscription as one
 * catch-up delivery, and then points at it (`merged`, `merged_into`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notification_subscriptions', (t) => {
    t.jsonb('preferences').notNullable().defaultTo('{}');
  });
  await knex.schema.alterTable('notification_delivery_ledger', (t) => {
    t.timestamp('held_at', { useTz: true });
    t.timestamp('held_until', { useTz: true });
    t.bigInteger('merged_into');
  });
  await knex.raw("CREATE INDEX notification_delivery_ledger_held ON notification_delivery_ledger (held_until, subscription_id) WHERE status = 'held'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_held');
  await knex.schema.alterTable('notification_delivery_ledger', (t) => {
    t.dropColumn('merged_into');
    t.dropColumn('held_until');
    t.dropColumn('held_at');
  });
  await knex.schema.alterTable('notification_subscriptions', (t) => {
    t.dropColumn('preferences');
  });
}
