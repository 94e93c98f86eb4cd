import { distance } from '@turf/distance';
import { point } from '@turf/helpers';
import { describe, expect, it } from 'vitest';
import type { AreaGeometry, LinearRing } from '../plugin-api/shape-checks.ts';
import { distanceMeters, placeReaches } from './place-match.ts';

// A block of Kandy (about 1.1 × 1.1 km) with a hole in its middle (about 220 × 220 m).
const outer: LinearRing = [
  [80.63, 7.29],
  [80.64, 7.29],
  [80.64, 7.3],
  [80.63, 7.3],
  [80.63, 7.29],
];
const hole: LinearRing = [
  [80.634, 7.294],
  [80.636, 7.294],
  [80.636, 7.296],
  [80.634, 7.296],
  [80.634, 7.294],
];
const block: AreaGeometry = { type: 'Polygon', coordinates: [outer, hole] };
const far: LinearRing = [
  [80.7, 7.29],
  [80.71, 7.29],
  [80.71, 7.3],
  [80.7, 7.3],
  [80.7, 7.29],
];
const two: AreaGeometry = { type: 'MultiPolygon', coordinates: [[outer], [far]] };
// 0.001° of latitude is about 111 m.
const METERS = 111.195;

describe('placeReaches: a place matches a shape within its radius', () => {
  it.each<[string, { lat: number; lon: number; radiusMeters?: number }, AreaGeometry, boolean]>([
    ['inside the shape, radius 0', { lat: 7.292, lon: 80.632, radiusMeters: 0 }, block, true],
    ['outside, within the default 100 m (about 56 m south)', { lat: 7.2895, lon: 80.635 }, block, true],
    ['outside, just beyond the radius (about 111 m south, radius 100 m)', { lat: 7.289, lon: 80.635 }, block, false],
    ['outside, within a radius of 120 m', { lat: 7.289, lon: 80.635, radiusMeters: 120 }, block, true],
    ['in the hole, farther than the radius from its edge', { lat: 7.295, lon: 80.635, radiusMeters: 100 }, block, false],
    ['in the hole, within the radius of its edge', { lat: 7.295, lon: 80.635, radiusMeters: 120 }, block, true],
    ['in the second polygon of a multipolygon', { lat: 7.295, lon: 80.705, radiusMeters: 0 }, two, true],
    ['between the two polygons, 3 km from each', { lat: 7.295, lon: 80.67, radiusMeters: 2000 }, two, false],
    ['between the two polygons, with a 5 km radius', { lat: 7.295, lon: 80.67, radiusMeters: 5000 }, two, true],
    ['far north, cut short by the box', { lat: 8.5, lon: 80.635, radiusMeters: 5000 }, block, false],
  ])('%s', (_name, place, geometry, reaches) => {
    expect(placeReaches(place, geometry)).toBe(reaches);
  });

  it('measures to within a metre of the great-circle distance to the nearest edge', () => {
    // Due south of the southern edge by 0.002° of latitude.
    expect(Math.abs(distanceMeters({ lat: 7.288, lon: 80.635 }, block) - 2 * METERS)).toBeLessThan(1);
    expect(distanceMeters({ lat: 7.292, lon: 80.632 }, block)).toBe(0);
  });

  it("agrees with a brute-force truth from turf on 400 seeded points near the shape's edges", () => {
    // The truth: the distance to the edges sampled every metre or so, and inside the outer ring but not the hole is 0.
    const edges = [outer, hole].flatMap((ring) =>
      ring.slice(0, -1).flatMap(([x1, y1], i) => {
        const [x2, y2] = ring[i + 1]!;
        return Array.from({ length: 1200 }, (_, k) => [x1 + ((x2 - x1) * k) / 1200, y1 + ((y2 - y1) * k) / 1200] as const);
      }),
    );
    const inside = (lon: number, lat: number, [west, south, east, north]: number[]) => lon > west && lon < east && lat > south && lat < north;
    let seed = 20261128;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let disagreements = 0;
    for (let n = 0; n < 400; n++) {
      const lon = 80.628 + random() * 0.014;
      const lat = 7.288 + random() * 0.014;
      const radius = Math.round(random() * 300);
      const inShape = inside(lon, lat, [80.63, 7.29, 80.64, 7.3]) && !inside(lon, lat, [80.634, 7.294, 80.636, 7.296]);
      const nearest = Math.min(...edges.map(([x, y]) => distance(point([lon, lat]), point([x, y]), { units: 'meters' })));
      const truth = inShape ? 0 : nearest;
      expect(Math.abs(distanceMeters({ lat, lon }, block) - truth), `at ${lat}, ${lon}`).toBeLessThan(1.5);
      // Only a point within a metre of its radius may be judged either way.
      if (Math.abs(truth - radius) > 1 && placeReaches({ lat, lon, radiusMeters: radius }, block) !== truth <= radius) disagreements++;
    }
    expect(disagreements).toBe(0);
  });
});
