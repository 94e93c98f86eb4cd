import type { Knex } from 'knex';

/**
 * A browser's encryption keys of each Web Push subscription (RFC 8291:
 * the user agent's public key `p256dh` and its `auth` secret), kept to
 * encrypt every message to it; they go with the subscription. The
 * endpoint is the subscription's destination.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('delivery_webpush_keys', (t) => {
    t.bigInteger('subscription_id').primary().references('id').inTable('notification_subscriptions').onDelete('CASCADE');
    t.text('p256dh').notNullable();
    t.text('auth').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('delivery_webpush_keys');
}
