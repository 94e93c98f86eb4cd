import type { Knex } from 'knex';
import type { NotificationEvent, RenderedNotification } from '../plugin-api/feed-types.ts';
import type { RecipientColumns } from './recipient.ts';
import type { SubscriptionFilter } from './subscription-filter.ts';

type Db = Knex | Knex.Transaction;

export interface PreparedEvent {
  event: NotificationEvent;
  itemKey: string;
  rendered: RenderedNotification;
}

/** Stores the events of one call (rendered once each); returns their ids in order. */
export async function insertEvents(db: Db, prepared: readonly PreparedEvent[]): Promise<number[]> {
  const rows = await db('notification_events')
    .insert(
      prepared.map(({ event, itemKey, rendered }) => ({
        feed_id: event.feedId,
        event_type: event.eventType,
        source_key: event.sourceKey,
        item_key: itemKey,
        fields: JSON.stringify(event.fields),
        payload: JSON.stringify(event.sourcePayload ?? null),
        rendered: JSON.stringify(rendered),
      })),
    )
    .returning('id');
  return rows.map((row: { id: number }) => Number(row.id));
}

export interface SubscriptionRow extends RecipientColumns {
  id: number;
  filter_json: SubscriptionFilter;
}

/**
 * The active subscriptions of a feed in id order, a bounded page at a time
 * (keyset pagination): memory stays flat however many there are.
 */
export async function* activeSubscriptionPages(
  db: Db,
  feedId: string,
  pageSize: number,
  onlyIds?: readonly number[],
): AsyncGenerator<SubscriptionRow[]> {
  let after = 0;
  for (;;) {
    const query = db('notification_subscriptions')
      .select('id', 'public_id', 'display_name', 'feed_id', 'provider', 'destination', 'scope', 'filter_json')
      .where({ feed_id: feedId, is_active: true })
      .andWhere('id', '>', after)
      .orderBy('id')
      .limit(pageSize);
    if (onlyIds) query.whereIn('id', [...onlyIds]);
    const page: SubscriptionRow[] = await query;
    if (page.length === 0) return;
    yield page;
    if (page.length < pageSize) return;
    after = Number(page.at(-1)!.id);
  }
}
