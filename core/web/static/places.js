// @ts-check
// Pure: places on the pages (the subscribe page's "Where?", the manage page's places), tested in core/web/places.test.ts.

/** @typedef {{ name?: string, lat: number, lon: number, radiusMeters?: number }} Place */

/** The distances a person picks from, in metres. */
export const RADIUS_CHOICES = [100, 250, 500, 1000, 2000, 5000];

/** `250 m`, `2 km`. @param {number} meters */
export const distanceWords = (meters) => (meters >= 1000 ? `${(meters / 1000).toLocaleString()} km` : `${meters} m`);

/** A coordinate as people read it: five decimals (about a metre). @param {number} value */
const coordinate = (value) => value.toFixed(5);

/**
 * A place in words: `Home: within 250 m of 7.29060, 80.63370`.
 * @param {Place} place
 * @param {(key: string, english: string) => string} [word]
 */
export function placeWords(place, word = (_key, english) => english) {
  // One sentence per language (its words in its own order): @distance and @point are put in.
  const where = word('page.where.placeWords', 'within @distance of @point')
    .replace('@distance', distanceWords(place.radiusMeters ?? 100))
    .replace('@point', `${coordinate(place.lat)}, ${coordinate(place.lon)}`);
  return place.name ? `${place.name}: ${where}` : where;
}

/**
 * A place as the API takes it: coordinates rounded to five decimals, a name only when given (trimmed, at most 60).
 * @param {{ lat: number, lon: number }} point
 * @param {number} radiusMeters
 * @param {string} name
 * @returns {Place}
 */
export function placeOf(point, radiusMeters, name) {
  const round = (/** @type {number} */ value) => Math.round(value * 1e5) / 1e5;
  const trimmed = [...name.trim()].slice(0, 60).join('');
  return { ...(trimmed ? { name: trimmed } : {}), lat: round(point.lat), lon: round(point.lon), radiusMeters };
}

/**
 * A longitude brought back into -180..180 (a map scrolled round the world gives others).
 * @param {number} lon
 */
export const wrappedLongitude = (lon) => ((((lon + 180) % 360) + 360) % 360) - 180;
