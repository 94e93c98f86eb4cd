import { circle } from '@turf/circle';
import type { AreaGeometry } from '../plugin-api/shape-checks.ts';
import { DEFAULT_RADIUS_METERS, type Place } from './place-match.ts';

/** Places as a shape (each a 32-sided polygon of its radius, at least 50 m): an operator's announcement to the people near them. Pure. */
export function circlesAround(places: readonly Place[]): AreaGeometry | undefined {
  if (places.length === 0) return undefined;
  return {
    type: 'MultiPolygon',
    coordinates: places.map(
      (place) =>
        circle([place.lon, place.lat], Math.max(50, place.radiusMeters ?? DEFAULT_RADIUS_METERS), { steps: 32, units: 'meters' }).geometry.coordinates as Array<
          Array<[number, number]>
        >,
    ),
  };
}
