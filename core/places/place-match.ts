import { pointToPolygonDistance } from '@turf/point-to-polygon-distance';
import { point } from '@turf/helpers';
import { polygonsOf, type AreaGeometry } from '../plugin-api/shape-checks.ts';
import type { Place } from '../plugin-api/shape-types.ts';

export type { Place };

export const MAX_PLACES = 5;
export const MAX_RADIUS_METERS = 5000;
export const DEFAULT_RADIUS_METERS = 100;
export const MAX_PLACE_NAME = 60;

/** Metres in a degree of latitude (the mean radius's), a floor for any great-circle degree: what the box test may rely on. */
const METERS_PER_DEGREE = 111_195;

interface Box {
  readonly south: number;
  readonly north: number;
  readonly west: number;
  readonly east: number;
}

const boxes = new WeakMap<object, Box>();
function boxOf(geometry: AreaGeometry): Box {
  let box = boxes.get(geometry);
  if (!box) {
    let [south, north, west, east] = [90, -90, 180, -180];
    for (const rings of polygonsOf(geometry)) {
      for (const [lon, lat] of rings[0] ?? []) {
        south = Math.min(south, lat);
        north = Math.max(north, lat);
        west = Math.min(west, lon);
        east = Math.max(east, lon);
      }
    }
    box = { south, north, west, east };
    boxes.set(geometry, box);
  }
  return box;
}

/**
 * How far a point is from a shape, in metres on the sphere (turf's
 * great-circle distances): 0 inside it, the distance to the nearest edge
 * outside it (a hole is outside). Pure.
 */
export function distanceMeters(place: Pick<Place, 'lat' | 'lon'>, geometry: AreaGeometry): number {
  return Math.max(0, pointToPolygonDistance(point([place.lon, place.lat]), geometry as never, { units: 'meters' }));
}

/**
 * Whether a shape comes within a place's radius (inside it is distance 0).
 * A point whose latitude alone puts it farther than the radius from the
 * shape's box is judged without the exact distance. Pure.
 */
export function placeReaches(place: Place, geometry: AreaGeometry): boolean {
  const radius = place.radiusMeters ?? DEFAULT_RADIUS_METERS;
  const box = boxOf(geometry);
  const margin = radius / METERS_PER_DEGREE;
  if (place.lat < box.south - margin || place.lat > box.north + margin) return false;
  return distanceMeters(place, geometry) <= radius;
}
