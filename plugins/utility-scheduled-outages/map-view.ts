import type { FeedMapView, MapFeature, SectionsConfig } from '#plugin-api';
import { calendarWindow, outageInstants } from './calendar-view.ts';
import type { scheduledOutagesConfig } from './config.ts';
import { latestPoll } from './scheduled-store.ts';
import type { ScheduledOutageItem } from './scheduled-types.ts';

type Config = SectionsConfig<typeof scheduledOutagesConfig>;

/** A planned outage with a shape as the map shows it (pure): its times in the feed's zone. */
export function plannedFeature(item: ScheduledOutageItem, timeZone: string): MapFeature | null {
  if (!item.geometry) return null;
  const { start, end } = outageInstants(item, timeZone);
  return {
    id: item.id,
    geometry: item.geometry,
    areas: item.areas,
    feeder: item.feeder || null,
    start,
    end,
    estimatedEnd: null,
    customersAffected: null,
    status: 'planned',
  };
}

/** The public map: planned outages from today on that the latest poll still lists, with a shape (at most 2,000, soonest first). */
export const scheduledOutageMap: FeedMapView<Config> = {
  async load({ db, now, config }) {
    const timeZone = config.ScheduledOutages.TimeZone;
    const rows: Array<{ payload: ScheduledOutageItem }> = await db('scheduled_outages')
      .where('outage_date', '>=', calendarWindow(now, timeZone).today)
      .where('status', 'scheduled')
      .where('last_seen_at', '>=', latestPoll(db))
      .whereRaw("jsonb_typeof(payload->'geometry') = 'object'")
      .orderBy(['outage_date', 'start_time', 'id'])
      .limit(2000)
      .select('payload');
    return { features: rows.flatMap((row) => plannedFeature(row.payload, timeZone) ?? []), lastModified: null };
  },
};
