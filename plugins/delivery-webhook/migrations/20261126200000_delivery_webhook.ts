import type { Knex } from 'knex';

/**
 * The signing secret of each webhook subscription (Standard Webhooks,
 * `whsec_…`), shown once in the create answer and kept here to sign every
 * delivery: encrypted (AES-256-GCM) when Webhook__EncryptionKey is set,
 * as it is otherwise. It goes with its subscription.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('delivery_webhook_secrets', (t) => {
    t.bigInteger('subscription_id').primary().references('id').inTable('notification_subscriptions').onDelete('CASCADE');
    t.text('secret').notNullable();
    t.boolean('encrypted').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('delivery_webhook_secrets');
}
