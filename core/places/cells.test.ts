import { describe, expect, it } from 'vitest';
import { placeCells, shapeCells } from './cells.ts';
import type { AreaGeometry } from '../plugin-api/shape-checks.ts';
import { placeReaches } from './place-match.ts';

const block: AreaGeometry = {
  type: 'Polygon',
  coordinates: [
    [
      [80.63, 7.29],
      [80.64, 7.29],
      [80.64, 7.3],
      [80.63, 7.3],
      [80.63, 7.29],
    ],
    [
      [80.634, 7.294],
      [80.636, 7.294],
      [80.636, 7.296],
      [80.634, 7.296],
      [80.634, 7.294],
    ],
  ],
};
// A thin strip (a line of poles): about 20 m wide and 6 km long.
const strip: AreaGeometry = {
  type: 'Polygon',
  coordinates: [
    [
      [80.6, 7.3],
      [80.655, 7.3],
      [80.655, 7.3002],
      [80.6, 7.3002],
      [80.6, 7.3],
    ],
  ],
};

describe('the cell index of places', () => {
  it('never leaves out a place that reaches the shape: every match shares a cell with it (600 seeded places near the edges)', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const shape of [block, strip]) {
      const cover = new Set(shapeCells(shape));
      let matched = 0;
      for (let n = 0; n < 300; n++) {
        const place = { lat: 7.25 + random() * 0.1, lon: 80.58 + random() * 0.1, radiusMeters: Math.round(random() * 5000) };
        if (!placeReaches(place, shape)) continue;
        matched++;
        expect(
          placeCells([place]).some((cell) => cover.has(cell)),
          `${place.lat}, ${place.lon} r ${place.radiusMeters}`,
        ).toBe(true);
      }
      expect(matched).toBeGreaterThan(50);
    }
  });

  it('keeps a place far from the shape out: no cell in common', () => {
    expect(placeCells([{ lat: 7.9, lon: 80.6, radiusMeters: 1000 }]).some((cell) => shapeCells(block)!.includes(cell))).toBe(false);
  });

  it('stores a few cells per place: 100 m touches up to 3, 5 km a few dozen', () => {
    expect(placeCells([{ lat: 7.29, lon: 80.63 }]).length).toBeLessThanOrEqual(3);
    const wide = placeCells([{ lat: 7.29, lon: 80.63, radiusMeters: 5000 }]).length;
    expect(wide).toBeGreaterThan(10);
    expect(wide).toBeLessThan(60);
    // As bigint text, for a bigint[] column.
    expect(placeCells([{ lat: 7.29, lon: 80.63 }])[0]).toMatch(/^\d+$/);
  });
});
