import type { Knex } from 'knex';

/**
 * One phone number's subscriptions, found by what it texts back (an SMS
 * STOP stops them all): the plugin API's `subscriptions.byDestination`
 * reads this index, not the whole table.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX notification_subscriptions_destination ON notification_subscriptions (provider, destination)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS notification_subscriptions_destination');
}
