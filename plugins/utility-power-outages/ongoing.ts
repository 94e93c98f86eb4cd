import { formatDateTime, singleLine as one, type FeedPluginContext, type OngoingItem } from '#plugin-api';
import type { powerOutagesConfig } from './config.ts';
import { toNotificationEvents } from './event-mapper.ts';
import type { PowerOutageItem } from './outage-types.ts';

/** One line of an ongoing outage (pure): where, since when, the estimate when there is one. */
export function ongoingSummary(item: PowerOutageItem, zone: string): string {
  const place = one(item.areas.join(', ')) || one(item.feeder);
  const since = `no power since ${formatDateTime(item.timeOff, zone)}`;
  const estimate = item.estimatedRestoration ? `, back by ${formatDateTime(item.estimatedRestoration, zone)} (estimate)` : '';
  return `${place} (feeder ${one(item.feeder)}): ${since}${estimate}`;
}

/**
 * The outages going on now, as the feed last listed them: announced, not
 * restored, still in the answer. Each is matched as its NewOutage event.
 */
export async function ongoingOutages(context: FeedPluginContext<typeof powerOutagesConfig>): Promise<readonly OngoingItem[]> {
  const rows: Array<{ payload: PowerOutageItem }> = await context
    .db('power_outages')
    .where({ in_feed: true })
    .whereNull('time_restored')
    .whereNotNull('outage_notified_at')
    .orderBy([{ column: 'time_off' }, { column: 'id' }])
    .limit(100)
    .select('payload');
  const zone = context.config.PowerOutages.TimeZone;
  return rows.map(({ payload }) => ({
    event: toNotificationEvents([{ kind: 'NewOutage', item: payload }])[0]!,
    summary: ongoingSummary(payload, zone),
  }));
}
