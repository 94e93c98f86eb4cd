import { cleanGeometry, polygonsOf, type AreaGeometry } from '../plugin-api/shape-checks.ts';
import type { MapFeature } from '../plugin-api/shape-types.ts';

export type { MapFeature };

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A FeatureCollection (RFC 7946) of a feed's current shapes (pure). */
export function outagesGeoJson(feedId: string, features: readonly MapFeature[]) {
  return {
    type: 'FeatureCollection' as const,
    features: features.map((feature) => ({
      type: 'Feature' as const,
      id: feature.id,
      geometry: cleanGeometry(feature.geometry),
      properties: {
        feedId,
        id: feature.id,
        areas: [...feature.areas],
        feeder: feature.feeder,
        start: iso(feature.start),
        end: iso(feature.end),
        estimatedEnd: iso(feature.estimatedEnd),
        customersAffected: feature.customersAffected,
        status: feature.status,
      },
    })),
  };
}

/**
 * A shape as CAP 1.2 `<polygon>` values (section 3.2.4): each polygon's
 * outer ring as space-separated `lat,lon` pairs, the first equal to the
 * last (a hole has no CAP form: the area it leaves out is kept in). Pure.
 */
export function capPolygons(geometry: AreaGeometry): string[] {
  return polygonsOf(geometry).map((rings) => (rings[0] ?? []).map(([lon, lat]) => `${lat},${lon}`).join(' '));
}
