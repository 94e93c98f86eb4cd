import { Pool } from 'undici';

/** One place a geocoder found for an address. */
export interface FoundPlace {
  readonly name: string;
  readonly lat: number;
  readonly lon: number;
}

/**
 * A geocoder's answer (Nominatim's `format=jsonv2`: `[{ display_name, lat,
 * lon }]`, numbers as text) as places, the odd entry left out: at most
 * `limit`, names kept to one line of 200 characters. Pure.
 */
export function foundPlaces(answer: unknown, limit = 5): FoundPlace[] {
  if (!Array.isArray(answer)) return [];
  return answer
    .flatMap((entry: unknown) => {
      if (entry === null || typeof entry !== 'object') return [];
      const { display_name: name, lat, lon } = entry as Record<string, unknown>;
      const [y, x] = [Number(lat), Number(lon)];
      if (typeof name !== 'string' || !Number.isFinite(y) || !Number.isFinite(x) || y < -90 || y > 90 || x < -180 || x > 180) return [];
      const oneLine = name
        .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
        .trim()
        .slice(0, 200);
      return oneLine ? [{ name: oneLine, lat: y, lon: x }] : [];
    })
    .slice(0, limit);
}

export type GeocodeResult =
  | { readonly kind: 'found'; readonly places: FoundPlace[] }
  | { readonly kind: 'busy' }
  | { readonly kind: 'unavailable'; readonly reason: string };

/** How long a search may wait its turn before it is told the search is busy. */
export const LONGEST_WAIT_MS = 2000;

/**
 * Searches the configured geocoder for an address (the subscribe page's
 * address box asks through the service: the page talks to nobody else),
 * at most `requestsPerSecond` a second from this instance (a search waits
 * its turn for up to two seconds, and is busy beyond), answers kept a
 * while (the same address asked twice is asked once).
 */
export function createGeocoder(options: { baseUrl: string; timeoutSeconds: number; requestsPerSecond: number; userAgent: string }) {
  const base = new URL(options.baseUrl);
  const pool = new Pool(base.origin, { connections: 2 });
  const searchPath = `${base.pathname.replace(/\/+$/, '')}/search`;
  const interval = 1000 / options.requestsPerSecond;
  let nextAt = 0;
  const cache = new Map<string, { at: number; places: FoundPlace[] }>();
  return {
    async search(query: string): Promise<GeocodeResult> {
      const key = query.trim().toLowerCase();
      const cached = cache.get(key);
      if (cached && Date.now() - cached.at < 3_600_000) return { kind: 'found', places: cached.places };
      const now = Date.now();
      const turn = Math.max(now, nextAt);
      if (turn - now > LONGEST_WAIT_MS) return { kind: 'busy' };
      nextAt = turn + interval;
      if (turn > now) await new Promise((resolve) => setTimeout(resolve, turn - now));
      try {
        const response = await pool.request({
          method: 'GET',
          path: `${searchPath}?${new URLSearchParams({ q: query, format: 'jsonv2', limit: '5' })}`,
          headers: { accept: 'application/json', 'user-agent': options.userAgent },
          headersTimeout: options.timeoutSeconds * 1000,
          bodyTimeout: options.timeoutSeconds * 1000,
        });
        const text = await response.body.text();
        if (response.statusCode !== 200) return { kind: 'unavailable', reason: `the geocoder answered ${response.statusCode}` };
        const places = foundPlaces(JSON.parse(text));
        if (cache.size >= 1000) cache.delete(cache.keys().next().value!);
        cache.set(key, { at: Date.now(), places });
        return { kind: 'found', places };
      } catch (error) {
        return { kind: 'unavailable', reason: `the geocoder did not answer (${(error as { code?: string }).code ?? (error as Error).name})` };
      }
    },
    close: () => pool.close(),
  };
}

export type Geocoder = ReturnType<typeof createGeocoder>;
