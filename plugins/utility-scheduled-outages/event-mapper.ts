import { createHash } from 'node:crypto';
import type { NotificationEvent } from '#plugin-api';
import type { FieldChange, ScheduledOutageChange, ScheduledOutageItem, UpdatedPayload } from './scheduled-types.ts';
import { SCHEDULED_OUTAGES_FEED_ID } from './renderers.ts';

/**
 * SourceKey of a change: the provider id; for Updated the id
 * plus a short digest of what changed (old → new), so each distinct change
 * is delivered once and a repeated poll of the same state is not.
 */
export function sourceKeyOf(change: { kind: string; item: ScheduledOutageItem; changes: readonly FieldChange[] }): string {
  if (change.kind !== 'Updated') return change.item.id;
  const digest = createHash('sha256')
    .update(JSON.stringify(change.changes.map((c) => [c.field, c.from, c.to])))
    .digest('hex')
    .slice(0, 12);
  return `${change.item.id}-${digest}`;
}

export const fieldsOf = (item: ScheduledOutageItem): Record<string, string> => ({
  feeder: item.feeder,
  ...(item.areas.length === 1 ? { area: item.areas[0] } : {}),
  areas: item.areas.join(', '),
  ...(item.reason ? { reason: item.reason } : {}),
});

/** MAP: source changes to NotificationEvents (itemKey groups an item's Updated events for cooldown coalescing). */
export function toNotificationEvents(changes: ReadonlyArray<ScheduledOutageChange & { sourceKey: string }>): NotificationEvent[] {
  return changes.map((change) => ({
    feedId: SCHEDULED_OUTAGES_FEED_ID,
    eventType: change.kind,
    sourceKey: change.sourceKey,
    itemKey: change.item.id,
    fields: fieldsOf(change.item),
    sourcePayload: change.kind === 'Updated' ? ({ item: change.item, changes: change.changes } satisfies UpdatedPayload) : change.item,
    ...(change.item.geometry ? { geometry: change.item.geometry } : {}),
  }));
}
