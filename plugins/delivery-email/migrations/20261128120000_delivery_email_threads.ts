import type { Knex } from 'knex';

/**
 * One thread per subscription and source item: every email about one
 * outage to one address answers the first (In-Reply-To, References) and
 * carries its subject, so mail clients show one conversation. The thread
 * goes with its subscription.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('email_threads', (t) => {
    t.bigIncrements('id');
    t.bigInteger('subscription_id').notNullable().references('id').inTable('notification_subscriptions').onDelete('CASCADE');
    t.text('feed_id').notNullable();
    t.text('item_key').notNullable();
    // The subject every email of the thread carries: the first one's.
    t.text('subject').notNullable();
    // The first email of the thread (its Message-ID is the one the others answer).
    t.bigInteger('first_outbox_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['subscription_id', 'feed_id', 'item_key']);
  });
  await knex.schema.alterTable('email_outbox', (t) => {
    t.bigInteger('thread_id').references('id').inTable('email_threads').onDelete('SET NULL');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('email_outbox', (t) => t.dropColumn('thread_id'));
  await knex.schema.dropTable('email_threads');
}
