/**
 * Places: outage shapes, the places subscribers give, and how the two meet
 * (pure), with the cell index the fan-out reads through; and the geocoder
 * that finds a place by its name (I/O, when Geocoder__BaseUrl is set).
 */
export {
  cleanGeometry,
  geometryProblem,
  MAX_POSITIONS,
  polygonsOf,
  type AreaGeometry,
  type LinearRing,
  type MultiPolygonGeometry,
  type PolygonGeometry,
  type Position,
} from '../plugin-api/shape-checks.ts';
export { DEFAULT_RADIUS_METERS, distanceMeters, MAX_PLACE_NAME, MAX_PLACES, MAX_RADIUS_METERS, placeReaches, type Place } from './place-match.ts';
export { CELL_RESOLUTION, cellsForShapes, MAX_SHAPE_CELLS, placeCells, shapeCells } from './cells.ts';
export { capPolygons, outagesGeoJson, type MapFeature } from './outages-geojson.ts';
export { circlesAround } from './circles.ts';
export { createGeocoder, type FoundPlace, type GeocodeResult, type Geocoder } from './geocoder.ts';
