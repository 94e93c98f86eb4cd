import type { Knex } from 'knex';

/**
 * Reads of the public views (calendar and alert feeds): the latest events
 * of a feed, the first event of a (feed, type, SourceKey), and the earlier
 * events of one source item that an update references.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notification_events', (t) => {
    t.index(['feed_id', 'id'], 'notification_events_feed_latest');
    t.index(['feed_id', 'event_type', 'source_key', 'id'], 'notification_events_feed_key');
    t.index(['feed_id', 'item_key', 'id'], 'notification_events_feed_item');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notification_events', (t) => {
    t.dropIndex([], 'notification_events_feed_latest');
    t.dropIndex([], 'notification_events_feed_key');
    t.dropIndex([], 'notification_events_feed_item');
  });
}
