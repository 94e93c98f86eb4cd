import type { Knex } from 'knex';

/**
 * Subscription lifecycle and the create limits (contracts §5), kept in the
 * database so they hold across restarts and instances.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notification_subscriptions', (t) => {
    // An email subscription waiting for its address to be verified: inactive, but it counts against the limits.
    t.boolean('pending_verification').notNullable().defaultTo(false);
  });
  await knex.schema.createTable('subscription_rate_counters', (t) => {
    t.text('client_ip').notNullable();
    t.date('day').notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.primary(['client_ip', 'day']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('subscription_rate_counters');
  await knex.schema.alterTable('notification_subscriptions', (t) => t.dropColumn('pending_verification'));
}
