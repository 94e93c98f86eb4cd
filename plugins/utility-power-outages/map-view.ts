import type { FeedMapView, MapFeature, SectionsConfig } from '#plugin-api';
import type { powerOutagesConfig } from './config.ts';
import type { PowerOutageItem } from './outage-types.ts';

type Config = SectionsConfig<typeof powerOutagesConfig>;

/** An outage with a shape as the map shows it (pure). */
export function outageFeature(item: PowerOutageItem): MapFeature | null {
  if (!item.geometry) return null;
  return {
    id: item.id,
    geometry: item.geometry,
    areas: item.areas,
    feeder: item.feeder || null,
    start: new Date(item.timeOff),
    end: item.timeRestored ? new Date(item.timeRestored) : null,
    estimatedEnd: item.estimatedRestoration ? new Date(item.estimatedRestoration) : null,
    customersAffected: item.customersAffected ?? null,
    status: 'ongoing',
  };
}

/**
 * The public map: the outages the feed lists now, not restored, that have a
 * shape (at most 2,000, oldest first). No Last-Modified: an outage that
 * ends leaves the map without anything newer to date it by; the ETag says
 * whether it changed.
 */
export const powerOutageMap: FeedMapView<Config> = {
  async load({ db }) {
    const rows: Array<{ payload: PowerOutageItem }> = await db('power_outages')
      .where({ in_feed: true })
      .whereNull('time_restored')
      .whereRaw("jsonb_typeof(payload->'geometry') = 'object'")
      .orderBy([{ column: 'time_off' }, { column: 'id' }])
      .limit(2000)
      .select('payload');
    return { features: rows.flatMap((row) => outageFeature(row.payload) ?? []), lastModified: null };
  },
};
