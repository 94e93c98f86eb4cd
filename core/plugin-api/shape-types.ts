/**
 * Shapes and places as the plugin API speaks of them: RFC 7946 GeoJSON
 * Polygons and MultiPolygons in WGS 84, positions `[lon, lat]`, and the
 * points subscribers give. Core's places module judges them.
 */
export type Position = readonly [number, number];
export type LinearRing = readonly Position[];
export interface PolygonGeometry {
  readonly type: 'Polygon';
  readonly coordinates: readonly LinearRing[];
}
export interface MultiPolygonGeometry {
  readonly type: 'MultiPolygon';
  readonly coordinates: readonly (readonly LinearRing[])[];
}
/** An item's shape: where it is. */
export type AreaGeometry = PolygonGeometry | MultiPolygonGeometry;

/** A place a subscriber gives: a point, how far around it counts, and a name of theirs ("Home"). */
export interface Place {
  readonly name?: string;
  readonly lat: number;
  readonly lon: number;
  /** 0 to 5,000; absent: 100. */
  readonly radiusMeters?: number;
}

/** One current item of a feed with its shape, as the public map shows it (a feed's `publicViews.map` gives these). */
export interface MapFeature {
  readonly id: string;
  readonly geometry: AreaGeometry;
  readonly areas: readonly string[];
  readonly feeder: string | null;
  /** When it began (or begins, for a planned one). */
  readonly start: Date;
  /** When it ended or will end; null while unknown. */
  readonly end: Date | null;
  /** The utility's estimate of its end, when it gives one. */
  readonly estimatedEnd: Date | null;
  readonly customersAffected: number | null;
  /** `ongoing`, `planned`, `cancelled`…: the feed's word. */
  readonly status: string;
}
