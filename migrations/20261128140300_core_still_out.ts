import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * "Still out?": a subscriber told that an item ended (a restoration) may
 * report that it has not, once per subscription and item, by the link in
 * the message or by a reply (OUT by SMS). A report records the item's
 * areas as the message gave them, and never changes the feed's state.
 * The link's token is an HMAC of its delivery under a key made here and
 * kept in the database (`service_keys`): nothing per delivery is stored,
 * every instance computes the same link, and a forged one needs the key.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('still_out_reports', (t) => {
    t.bigIncrements('id');
    t.bigInteger('subscription_id').notNullable().references('id').inTable('notification_subscriptions').onDelete('CASCADE');
    t.text('feed_id').notNullable();
    t.text('item_key').notNullable();
    t.text('areas').notNullable().defaultTo('');
    t.text('via').notNullable();
    t.bigInteger('ledger_id');
    t.timestamp('reported_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['subscription_id', 'feed_id', 'item_key'], { indexName: 'still_out_reports_once' });
    t.index(['feed_id', 'item_key'], 'still_out_reports_item');
    t.index(['reported_at'], 'still_out_reports_at');
  });
  await knex.raw("ALTER TABLE still_out_reports ADD CONSTRAINT still_out_reports_via_check CHECK (via IN ('link', 'reply'))");
  await knex.schema.createTable('service_keys', (t) => {
    t.text('name').primary();
    t.text('key').notNullable();
  });
  await knex('service_keys').insert({ name: 'still-out', key: randomBytes(32).toString('base64url') });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('service_keys');
  await knex.schema.dropTableIfExists('still_out_reports');
}
