import type { NotificationEvent } from '#plugin-api';
import type { PowerOutageChange } from './outage-types.ts';
import { POWER_OUTAGES_FEED_ID } from './renderers.ts';

/**
 * MAP: source changes to NotificationEvents. SourceKey and itemKey are the
 * provider's id, so each kind of change of one outage is delivered once and
 * a Restoration shares its NewOutage's sequence id. Fields carry the
 * catalog's filterable text.
 */
export function toNotificationEvents(changes: readonly PowerOutageChange[]): NotificationEvent[] {
  return changes.map(({ kind, item }) => ({
    feedId: POWER_OUTAGES_FEED_ID,
    eventType: kind,
    sourceKey: item.id,
    itemKey: item.id,
    fields: {
      feeder: item.feeder,
      ...(item.areas.length === 1 ? { area: item.areas[0] } : {}),
      areas: item.areas.join(', '),
      ...(item.cause ? { cause: item.cause } : {}),
    },
    sourcePayload: item,
  }));
}
