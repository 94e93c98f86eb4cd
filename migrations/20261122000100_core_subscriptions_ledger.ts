import type { Knex } from 'knex';

/**
 * Core tables. The delivery ledger is also the delivery work queue: a row is
 * claimed (unique subscription + source key + event type) before anything
 * is sent, and carries the outcome, so a crash neither repeats nor loses a
 * delivery.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_subscriptions', (t) => {
    t.bigIncrements('id');
    t.text('public_id').notNullable().unique();
    t.text('display_name').notNullable();
    t.text('feed_id').notNullable();
    t.jsonb('filter_json').notNullable().defaultTo('{}');
    t.text('provider').notNullable();
    t.text('destination').notNullable();
    t.text('scope').notNullable();
    t.boolean('is_active').notNullable().defaultTo(false);
    t.text('owner_user_id');
    t.text('created_ip');
    t.text('manage_token_hash');
    t.text('system_name').unique();
    t.timestamp('last_test_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['feed_id', 'is_active', 'id'], 'notification_subscriptions_feed_active');
    t.index(['owner_user_id'], 'notification_subscriptions_owner');
    t.index(['created_ip'], 'notification_subscriptions_created_ip');
  });
  await knex.raw(
    "ALTER TABLE notification_subscriptions ADD CONSTRAINT notification_subscriptions_scope_check CHECK (scope IN ('System', 'User', 'Anonymous'))",
  );

  await knex.schema.createTable('notification_events', (t) => {
    t.bigIncrements('id');
    t.text('feed_id').notNullable();
    t.text('event_type').notNullable();
    t.text('source_key').notNullable();
    t.text('item_key').notNullable();
    t.jsonb('fields').notNullable();
    t.jsonb('payload').notNullable();
    t.jsonb('rendered').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('notification_delivery_ledger', (t) => {
    t.bigIncrements('id');
    t.bigInteger('subscription_id').notNullable().references('id').inTable('notification_subscriptions').onDelete('CASCADE');
    t.text('source_key').notNullable();
    t.text('event_type').notNullable();
    t.text('feed_id').notNullable();
    t.text('item_key').notNullable();
    t.bigInteger('event_id').notNullable().references('id').inTable('notification_events');
    t.text('provider').notNullable();
    // pending → delivering → delivered | retrying → … | failed | superseded
    t.text('status').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('lease_until', { useTz: true });
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('delivered_at', { useTz: true });
    t.unique(['subscription_id', 'source_key', 'event_type'], { indexName: 'notification_delivery_ledger_once' });
    t.index(['subscription_id', 'item_key'], 'notification_delivery_ledger_item');
  });
  await knex.raw(
    "CREATE INDEX notification_delivery_ledger_due ON notification_delivery_ledger (next_attempt_at) WHERE status IN ('pending', 'retrying', 'delivering')",
  );

  await knex.schema.createTable('worker_leases', (t) => {
    t.text('name').primary();
    t.timestamp('next_run_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text('lease_owner');
    t.timestamp('lease_until', { useTz: true });
    t.timestamp('last_started_at', { useTz: true });
    t.timestamp('last_finished_at', { useTz: true });
    t.text('last_error');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('worker_leases');
  await knex.schema.dropTableIfExists('notification_delivery_ledger');
  await knex.schema.dropTableIfExists('notification_events');
  await knex.schema.dropTableIfExists('notification_subscriptions');
}
