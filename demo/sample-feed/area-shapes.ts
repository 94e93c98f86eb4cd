import type { AreaGeometry } from '../../core/plugin-api/index.ts';

/**
 * The sample utility's service areas as shapes, for the outage map and for
 * subscribing by place: each named town a rough blob of about 1.5 km round
 * its centre (a real utility draws its feeders' areas; these only have to
 * look like places and lie where the towns are). Pure.
 */
const CENTRES: Record<string, readonly [lat: number, lon: number]> = {
  Kandy: [7.2906, 80.6337],
  Peradeniya: [7.269, 80.5942],
  Katugastota: [7.3167, 80.6217],
  'Nuwara Eliya': [6.9497, 80.7891],
  'Hawa Eliya': [6.9602, 80.7743],
  Matale: [7.4675, 80.6234],
  Gampola: [7.1643, 80.5696],
  Nawalapitiya: [7.0488, 80.5335],
  Digana: [7.2983, 80.735],
  Kundasale: [7.2818, 80.683],
  Ampitiya: [7.2817, 80.657],
};

/** The towns the sample feed names, in a stable order. */
export const SAMPLE_TOWNS = Object.keys(CENTRES);

/** A closed ring of 10 corners round a centre, its radius varied by the town's name (the same every time). */
function blob(name: string, [lat, lon]: readonly [number, number], radiusKm: number): Array<[number, number]> {
  let seed = [...name].reduce((sum, ch) => (sum * 31 + ch.charCodeAt(0)) % 9973, 7);
  const corners = Array.from({ length: 10 }, (_, i) => {
    seed = (seed * 48271) % 2147483647;
    const r = radiusKm * (0.75 + (seed % 1000) / 2000);
    const angle = (2 * Math.PI * i) / 10;
    const round = (value: number) => Math.round(value * 1e5) / 1e5;
    return [round(lon + (r / (111.32 * Math.cos((lat * Math.PI) / 180))) * Math.cos(angle)), round(lat + (r / 110.57) * Math.sin(angle))] as [number, number];
  });
  return [...corners, corners[0]!];
}

/** The shape of the named towns (a Polygon for one, a MultiPolygon for several), or null when none is known. */
export function areaShape(areas: readonly string[], radiusKm = 1.5): AreaGeometry | null {
  const known = areas.filter((area) => CENTRES[area]);
  if (known.length === 0) return null;
  const rings = known.map((area) => blob(area, CENTRES[area]!, radiusKm));
  return rings.length === 1 ? { type: 'Polygon', coordinates: [rings[0]!] } : { type: 'MultiPolygon', coordinates: rings.map((ring) => [ring]) };
}

/** Where a town is: the demo's address search answers with it. */
export const townCentre = (name: string) => CENTRES[name] ?? null;
