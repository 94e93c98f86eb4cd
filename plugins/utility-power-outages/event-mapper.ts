import type { NotificationEvent } from '#plugin-api';
import type { PowerOutageChange, PowerOutageItem } from './outage-types.ts';
import { POWER_OUTAGES_FEED_ID } from './renderers.ts';

/** The SourceKey of a change: the provider's id; `<id>:etr:<n>` for the n-th estimate change, so each is delivered once. */
export const sourceKeyOf = ({ kind, item, estimateChange }: PowerOutageChange): string =>
  kind === 'EstimateUpdated' ? `${item.id}:etr:${estimateChange}` : item.id;

/**
 * MAP: source changes to NotificationEvents. The itemKey is the provider's
 * id, so every message about one outage shares its sequence id (a
 * Restoration replaces its NewOutage and estimate updates on the phone) and
 * estimate updates coalesce per outage. Fields carry the catalog's
 * filterable text, and its shape its geometry. The payload is the item,
 * with the estimate the notice shows (the detector's decision) for
 * NewOutage and EstimateUpdated.
 */
export function toNotificationEvents(changes: readonly PowerOutageChange[]): NotificationEvent<PowerOutageItem>[] {
  return changes.map((change) => {
    const { kind, item } = change;
    return {
      feedId: POWER_OUTAGES_FEED_ID,
      eventType: kind,
      sourceKey: sourceKeyOf(change),
      itemKey: item.id,
      fields: {
        feeder: item.feeder,
        ...(item.areas.length === 1 ? { area: item.areas[0] } : {}),
        areas: item.areas.join(', '),
        ...(item.cause ? { cause: item.cause } : {}),
      },
      sourcePayload: change.estimate === undefined ? item : { ...item, estimatedRestoration: change.estimate },
      // Its shape, when the utility gave one: subscribers' places match it.
      ...(item.geometry ? { geometry: item.geometry } : {}),
    };
  });
}
