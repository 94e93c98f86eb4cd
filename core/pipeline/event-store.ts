import type { Knex } from 'knex';
import type { NotificationEvent, RenderedNotification } from '../plugin-api/feed-types.ts';
import { insertInChunks } from '../plugin-api/bulk-insert.ts';

type Db = Knex | Knex.Transaction;

export { eventOfRow, type EventColumns } from '../delivery/index.ts';

export interface PreparedEvent {
  event: NotificationEvent;
  itemKey: string;
  rendered: RenderedNotification;
}

/** Stores the events of one call (rendered once each), in as many statements as their number needs; returns their ids in order. */
export async function insertEvents(db: Db, prepared: readonly PreparedEvent[]): Promise<number[]> {
  const rows = await insertInChunks<{ id: number | string }>(
    db,
    'notification_events',
    prepared.map(({ event, itemKey, rendered }) => ({
      feed_id: event.feedId,
      event_type: event.eventType,
      source_key: event.sourceKey,
      item_key: itemKey,
      fields: JSON.stringify(event.fields),
      payload: JSON.stringify(event.sourcePayload ?? null),
      rendered: JSON.stringify(rendered),
      urgent: event.urgent === true,
      geometry: event.geometry ? JSON.stringify(event.geometry) : null,
      confirm_by: event.confirmBy === undefined ? null : new Date(event.confirmBy).toISOString(),
    })),
    ['id'],
  );
  return rows.map((row) => Number(row.id));
}
