import type { Knex } from 'knex';

/**
 * One person's subscriptions share a manage token (a create that carries
 * an existing one joins it): they are found by its hash, for the manage
 * page's list and GET /api/subscribers/me.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX notification_subscriptions_manage_token ON notification_subscriptions (manage_token_hash) WHERE manage_token_hash IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS notification_subscriptions_manage_token');
}
