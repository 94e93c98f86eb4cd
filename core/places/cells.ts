import { circle } from '@turf/circle';
import { polygonToCellsExperimental, POLYGON_TO_CELLS_FLAGS } from 'h3-js';
import { polygonsOf, type AreaGeometry } from '../plugin-api/shape-checks.ts';
import { DEFAULT_RADIUS_METERS, type Place } from './place-match.ts';

/**
 * The index of places: H3 cells at one resolution (7: cells of about
 * 5 km², 1.4 km across). A place is stored with the cells its disk (point
 * and radius) touches; an event's shape with the cells it touches. A
 * place can reach a shape only if the two share a cell (a point they share
 * lies in a cell both touch), so a fan-out asks the exact distance only of
 * the subscriptions whose cells meet the shape's: the rest are left in the
 * database. Cells are stored as bigint (an H3 index's top bit is 0).
 */
export const CELL_RESOLUTION = 7;

/** A shape touching more cells than this (a whole province) is matched without the index: every place subscription is judged exactly. */
export const MAX_SHAPE_CELLS = 20_000;

const OVERLAPPING = POLYGON_TO_CELLS_FLAGS.containmentOverlapping;
const asBigint = (cell: string) => BigInt(`0x${cell}`).toString();

/** The cells a polygon (GeoJSON rings, [lon, lat]) touches. */
function cellsOfPolygon(rings: ReadonlyArray<ReadonlyArray<readonly [number, number]>>): string[] {
  return polygonToCellsExperimental(rings as unknown as number[][][], CELL_RESOLUTION, OVERLAPPING, true);
}

/** The cells a subscription's places touch (each disk, its radius a little widened for the 64-sided polygon that draws it), as bigint text. */
export function placeCells(places: readonly Place[]): string[] {
  const cells = new Set<string>();
  for (const place of places) {
    const radius = (place.radiusMeters ?? DEFAULT_RADIUS_METERS) * 1.002 + 5;
    const disk = circle([place.lon, place.lat], radius, { steps: 64, units: 'meters' });
    for (const cell of cellsOfPolygon(disk.geometry.coordinates as Array<Array<[number, number]>>)) cells.add(asBigint(cell));
  }
  return [...cells].sort();
}

/** The cells a shape touches, as bigint text; null when it touches more than MAX_SHAPE_CELLS. */
export function shapeCells(geometry: AreaGeometry): string[] | null {
  const cells = new Set<string>();
  for (const rings of polygonsOf(geometry)) {
    for (const cell of cellsOfPolygon(rings)) {
      cells.add(asBigint(cell));
      if (cells.size > MAX_SHAPE_CELLS) return null;
    }
  }
  return [...cells].sort();
}

const covers = new WeakMap<object, string[] | null>();

/**
 * The cells a page of subscriptions is read for, so that place
 * subscriptions whose cells meet none of these events' shapes stay in the
 * database: the union of the shapes' cells (an event without a shape adds
 * none: no place matches it), or null when one shape is too large for the
 * index (then every subscription is read). Each shape is covered once.
 */
export function cellsForShapes(geometries: ReadonlyArray<AreaGeometry | undefined>): string[] | null {
  const cells = new Set<string>();
  for (const geometry of geometries) {
    if (!geometry) continue;
    let cover = covers.get(geometry);
    if (cover === undefined) covers.set(geometry, (cover = shapeCells(geometry)));
    if (cover === null) return null;
    for (const cell of cover) cells.add(cell);
  }
  return [...cells];
}
