/**
 * Outage shapes: RFC 7946 GeoJSON Polygons and MultiPolygons in WGS 84,
 * positions `[lon, lat]`. What a feed may say of an item, checked before
 * anything stores it (pure).
 */
import type { AreaGeometry, LinearRing } from './shape-types.ts';

export type { AreaGeometry, LinearRing, MultiPolygonGeometry, PolygonGeometry, Position } from './shape-types.ts';

/** Positions one shape may have at most (every ring of every polygon together). */
export const MAX_POSITIONS = 10_000;

/** The problem with a value as a shape, in words naming where (`coordinates/0/3`), or null when it is a valid one. */
export function geometryProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'must be a GeoJSON Polygon or MultiPolygon object';
  const { type, coordinates } = value as { type?: unknown; coordinates?: unknown };
  if (type !== 'Polygon' && type !== 'MultiPolygon') return 'type must be Polygon or MultiPolygon';
  if (!Array.isArray(coordinates)) return 'coordinates must be an array';
  const polygons = type === 'Polygon' ? [coordinates] : coordinates;
  if (polygons.length === 0) return 'coordinates must hold at least one polygon';
  let positions = 0;
  for (const [p, rings] of polygons.entries()) {
    const at = type === 'Polygon' ? 'coordinates' : `coordinates/${p}`;
    if (!Array.isArray(rings) || rings.length === 0) return `${at} must hold at least one ring`;
    for (const [r, ring] of rings.entries()) {
      if (!Array.isArray(ring) || ring.length < 4) return `${at}/${r} must be a ring of at least 4 positions`;
      positions += ring.length;
      if (positions > MAX_POSITIONS) return `has more than ${MAX_POSITIONS} positions`;
      for (const [i, position] of ring.entries()) {
        const problem = positionProblem(position);
        if (problem) return `${at}/${r}/${i} ${problem}`;
      }
      const [first, last] = [ring[0] as number[], ring.at(-1) as number[]];
      if (first[0] !== last[0] || first[1] !== last[1]) return `${at}/${r} is not closed: its last position must equal its first`;
    }
  }
  return null;
}

function positionProblem(position: unknown): string | null {
  if (!Array.isArray(position) || position.length < 2 || position.length > 3) return 'must be a position [lon, lat]';
  const [lon, lat] = position as unknown[];
  if (typeof lon !== 'number' || !Number.isFinite(lon) || lon < -180 || lon > 180) return 'has a longitude outside -180..180';
  if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90) return 'has a latitude outside -90..90';
  return null;
}

/** The shape with only what a shape holds (type and coordinates, positions as [lon, lat]): nothing else a feed sent goes further. */
export function cleanGeometry(geometry: AreaGeometry): AreaGeometry {
  const ring = (r: LinearRing): LinearRing => r.map(([lon, lat]) => [lon, lat] as const);
  return geometry.type === 'Polygon'
    ? { type: 'Polygon', coordinates: geometry.coordinates.map(ring) }
    : { type: 'MultiPolygon', coordinates: geometry.coordinates.map((rings) => rings.map(ring)) };
}

/** Each polygon of a shape, as rings. */
export const polygonsOf = (geometry: AreaGeometry): ReadonlyArray<readonly LinearRing[]> =>
  geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
