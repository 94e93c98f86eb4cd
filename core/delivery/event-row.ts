import type { AreaGeometry } from '../plugin-api/shape-types.ts';
import type { NotificationEvent } from '../plugin-api/feed-types.ts';

/** A stored event's own columns, as the database gives them. */
export interface EventColumns {
  feed_id: string;
  event_type: string;
  source_key: string;
  item_key: string;
  fields: Record<string, string>;
  payload: unknown;
  urgent?: boolean | null;
  geometry?: AreaGeometry | null;
  confirm_by?: Date | string | null;
}

/** The columns eventOfRow reads (select them, with `id` and whatever else the caller needs). */
export const EVENT_COLUMNS = ['feed_id', 'event_type', 'source_key', 'item_key', 'fields', 'payload', 'urgent', 'geometry', 'confirm_by'] as const;

/** The event a stored row holds. */
export const eventOfRow = (row: EventColumns): NotificationEvent => ({
  feedId: row.feed_id,
  eventType: row.event_type,
  sourceKey: row.source_key,
  itemKey: row.item_key,
  fields: row.fields,
  sourcePayload: row.payload,
  ...(row.urgent ? { urgent: true } : {}),
  ...(row.geometry ? { geometry: row.geometry } : {}),
  ...(row.confirm_by ? { confirmBy: new Date(row.confirm_by).toISOString() } : {}),
});
