import type { Knex } from 'knex';

/**
 * Feed health (one row per feed, written after every poll by whichever
 * instance polled) and two small partial indexes the operator's views
 * need: the delivery backlog counts `queued` rows (handed to a
 * transactional target such as the email outbox), and the admin list of
 * deliveries pages through `failed` rows newest first. Both hold only rows
 * in that state, so they cost nothing on the fan-out's hot path.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('feed_health', (t) => {
    t.text('feed_id').primary();
    t.timestamp('last_poll_at', { useTz: true });
    t.timestamp('last_success_at', { useTz: true });
    t.timestamp('last_change_at', { useTz: true });
    t.text('last_error_kind');
    t.text('last_error_message');
    t.timestamp('last_error_at', { useTz: true });
    t.integer('consecutive_failures').notNullable().defaultTo(0);
    t.boolean('stale').notNullable().defaultTo(false);
    // Counts the times the feed turned stale: names each episode's alert (its SourceKey), so each is delivered once.
    t.integer('stale_episodes').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("CREATE INDEX notification_delivery_ledger_queued ON notification_delivery_ledger (provider) WHERE status = 'queued'");
  await knex.raw("CREATE INDEX notification_delivery_ledger_failed ON notification_delivery_ledger (id) WHERE status = 'failed'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_failed');
  await knex.raw('DROP INDEX IF EXISTS notification_delivery_ledger_queued');
  await knex.schema.dropTableIfExists('feed_health');
}
