import type { Knex } from 'knex';
import type { RenderedNotification } from '../plugin-api/feed-types.ts';
import type { StoredNotificationEvent } from '../plugin-api/public-views.ts';
import { TEST_EVENT_TYPE } from '../pipeline/test-event.ts';
import { eventOfRow, type EventColumns } from '../pipeline/event-store.ts';

interface EventRow extends EventColumns {
  id: string | number;
  rendered: RenderedNotification;
  created_at: Date | string;
}

const COLUMNS = ['id', 'feed_id', 'event_type', 'source_key', 'item_key', 'fields', 'payload', 'rendered', 'created_at', 'geometry'];

const toEvent = (row: EventRow): StoredNotificationEvent => ({
  id: Number(row.id),
  ...eventOfRow(row),
  rendered: row.rendered,
  createdAt: new Date(row.created_at),
});

/**
 * Only the first stored event of a (feed, type, SourceKey) is public: a
 * monitor that hands the same event over again (a digest retried within its
 * hour, a crash before the commit of a later step) stores another row, but
 * it is one announcement, as the delivery ledger counts it.
 */
const isFirstOfItsKey = (db: Knex) =>
  db.raw(
    `NOT EXISTS (SELECT 1 FROM notification_events d
                  WHERE d.feed_id = notification_events.feed_id AND d.event_type = notification_events.event_type
                    AND d.source_key = notification_events.source_key AND d.id < notification_events.id)`,
  );

export interface PublicEventQuery {
  readonly feedId: string;
  /** Event types that have a CAP profile: the only ones published (never core's private Test events). */
  readonly eventTypes: readonly string[];
  readonly matches: (event: StoredNotificationEvent) => boolean;
  readonly limit: number;
  /** Rows read at most, so a filter that matches nothing costs a bounded scan. */
  readonly scanLimit: number;
}

/** The latest public events of a feed that match, newest first, read a page at a time. */
export async function latestPublicEvents(db: Knex, query: PublicEventQuery): Promise<StoredNotificationEvent[]> {
  const types = query.eventTypes.filter((type) => type !== TEST_EVENT_TYPE);
  const found: StoredNotificationEvent[] = [];
  if (types.length === 0) return found;
  const pageSize = Math.min(500, query.scanLimit);
  let before: number | null = null;
  for (let scanned = 0; scanned < query.scanLimit && found.length < query.limit; ) {
    const page: EventRow[] = await db('notification_events')
      .select(COLUMNS)
      .where('feed_id', query.feedId)
      .whereIn('event_type', types)
      .modify((q) => (before === null ? q : q.where('id', '<', before)))
      .where(isFirstOfItsKey(db))
      .orderBy('id', 'desc')
      .limit(pageSize);
    for (const row of page) {
      const event = toEvent(row);
      if (query.matches(event)) found.push(event);
      if (found.length === query.limit) break;
    }
    if (page.length < pageSize) break;
    scanned += page.length;
    before = Number(page.at(-1)!.id);
  }
  return found;
}

/** A stored event by id as its public alert: the first event of its key (a repeated row stands for it), or none for a private type. */
export async function publicEventById(db: Knex, id: number): Promise<StoredNotificationEvent | undefined> {
  // One statement: the key of the asked row (none for a missing or private one), then its first row.
  const first: EventRow | undefined = await db('notification_events')
    .select(COLUMNS)
    .whereRaw('(feed_id, event_type, source_key) = (SELECT feed_id, event_type, source_key FROM notification_events WHERE id = ? AND event_type <> ?)', [
      id,
      TEST_EVENT_TYPE,
    ])
    .orderBy('id')
    .first();
  return first && toEvent(first);
}

/** The earlier public events of the same source item (itemKey) whose types have a CAP profile, oldest first. */
export async function earlierEventsOfItem(
  db: Knex,
  event: StoredNotificationEvent,
  eventTypes: readonly string[],
): Promise<Array<{ id: number; createdAt: Date }>> {
  const types = eventTypes.filter((type) => type !== TEST_EVENT_TYPE);
  if (types.length === 0) return [];
  const rows: Array<{ id: string | number; created_at: Date | string }> = await db('notification_events')
    .select('id', 'created_at')
    .where({ feed_id: event.feedId, item_key: event.itemKey })
    .whereIn('event_type', types)
    .where('id', '<', event.id)
    .where(isFirstOfItsKey(db))
    .orderBy('id');
  return rows.map((row) => ({ id: Number(row.id), createdAt: new Date(row.created_at) }));
}
