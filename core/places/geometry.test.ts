import { describe, expect, it } from 'vitest';
import { geometryProblem, MAX_POSITIONS } from '../plugin-api/shape-checks.ts';

const square = [
  [80.6, 7.28],
  [80.65, 7.28],
  [80.65, 7.32],
  [80.6, 7.32],
  [80.6, 7.28],
];

describe("geometryProblem: what a feed may give as an item's shape", () => {
  it.each<[string, unknown, string | null]>([
    ['a polygon', { type: 'Polygon', coordinates: [square] }, null],
    [
      'a polygon with a hole',
      {
        type: 'Polygon',
        coordinates: [
          square,
          [
            [80.62, 7.29],
            [80.63, 7.29],
            [80.63, 7.3],
            [80.62, 7.29],
          ],
        ],
      },
      null,
    ],
    ['a multipolygon', { type: 'MultiPolygon', coordinates: [[square], [square]] }, null],
    ['a position with an altitude', { type: 'Polygon', coordinates: [square.map(([x, y]) => [x, y, 12])] }, null],
    ['not an object', 'POLYGON((1 1))', 'must be a GeoJSON Polygon or MultiPolygon object'],
    ['null', null, 'must be a GeoJSON Polygon or MultiPolygon object'],
    ['a point', { type: 'Point', coordinates: [80.6, 7.28] }, 'type must be Polygon or MultiPolygon'],
    ['no coordinates', { type: 'Polygon' }, 'coordinates must be an array'],
    ['no ring', { type: 'Polygon', coordinates: [] }, 'coordinates must hold at least one ring'],
    ['no polygon', { type: 'MultiPolygon', coordinates: [] }, 'coordinates must hold at least one polygon'],
    ['a ring of 3', { type: 'Polygon', coordinates: [square.slice(0, 3)] }, 'coordinates/0 must be a ring of at least 4 positions'],
    [
      'a ring not closed',
      { type: 'Polygon', coordinates: [[...square.slice(0, 4), [80.61, 7.28]]] },
      'coordinates/0 is not closed: its last position must equal its first',
    ],
    [
      'a longitude out of range',
      {
        type: 'Polygon',
        coordinates: [
          [
            [181, 7],
            [80, 7],
            [80, 8],
            [181, 7],
          ],
        ],
      },
      'coordinates/0/0 has a longitude outside -180..180',
    ],
    [
      'a latitude out of range',
      {
        type: 'MultiPolygon',
        coordinates: [
          [square],
          [
            [
              [80, 91],
              [80, 7],
              [81, 7],
              [80, 91],
            ],
          ],
        ],
      },
      'coordinates/1/0/0 has a latitude outside -90..90',
    ],
    [
      'a position as text',
      {
        type: 'Polygon',
        coordinates: [
          [
            ['80', '7'],
            [80, 7],
            [81, 7],
            ['80', '7'],
          ],
        ],
      },
      'coordinates/0/0 has a longitude outside -180..180',
    ],
    [
      'a number that is no number',
      {
        type: 'Polygon',
        coordinates: [
          [
            [NaN, 7],
            [80, 7],
            [81, 7],
            [NaN, 7],
          ],
        ],
      },
      'coordinates/0/0 has a longitude outside -180..180',
    ],
    ['a position of one number', { type: 'Polygon', coordinates: [[[80], [80, 7], [81, 7], [80]]] }, 'coordinates/0/0 must be a position [lon, lat]'],
    [
      'too many positions',
      { type: 'Polygon', coordinates: [[...Array.from({ length: MAX_POSITIONS }, (_, i) => [80 + i / 1e5, 7]), [80, 7]]] },
      `has more than ${MAX_POSITIONS} positions`,
    ],
  ])('%s', (_name, value, problem) => {
    expect(geometryProblem(value)).toBe(problem);
  });
});
