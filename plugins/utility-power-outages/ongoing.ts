import { createTranslator, formatDateTime, intlLocale, singleLine as one, type FeedPluginContext, type OngoingItem } from '#plugin-api';
import type { powerOutagesConfig } from './config.ts';
import { toNotificationEvents } from './event-mapper.ts';
import type { PowerOutageItem } from './outage-types.ts';
import { ownMessages } from './renderers.ts';

/** One line of an ongoing outage (pure): where, since when, the estimate when there is one, in `language` (English by default). */
export function ongoingSummary(item: PowerOutageItem, zone: string, language?: string): string {
  const t = createTranslator(ownMessages, language);
  const time = (iso: string) => formatDateTime(iso, zone, intlLocale(language));
  const values = { place: one(item.areas.join(', ')) || one(item.feeder), feeder: one(item.feeder), since: time(item.timeOff) };
  return item.estimatedRestoration ? t('ongoing.lineEstimate', { ...values, estimate: time(item.estimatedRestoration) }) : t('ongoing.line', values);
}

/**
 * The outages going on now, as the feed last listed them: announced, not
 * restored, still in the answer. Each is matched as its NewOutage event.
 */
export async function ongoingOutages(context: FeedPluginContext<typeof powerOutagesConfig>, language?: string): Promise<readonly OngoingItem[]> {
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
    summary: ongoingSummary(payload, zone, language),
  }));
}
