import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The demo's addresses round Kandy, where the sample feed's outages are. */
export const DEMO_ADDRESSES: ReadonlyArray<{ name: string; lat: number; lon: number }> = [
  { name: 'Temple of the Tooth, Sri Dalada Veediya, Kandy', lat: 7.2936, lon: 80.6413 },
  { name: 'Kandy Railway Station, Kandy', lat: 7.2894, lon: 80.6326 },
  { name: 'Kandy Lake Round, Kandy', lat: 7.2915, lon: 80.6434 },
  { name: 'Peradeniya Road, Kandy', lat: 7.2831, lon: 80.6182 },
  { name: 'University of Peradeniya, Peradeniya', lat: 7.2546, lon: 80.5978 },
  { name: 'Royal Botanic Gardens, Peradeniya', lat: 7.2686, lon: 80.596 },
  { name: 'Katugastota Bridge, Katugastota', lat: 7.3237, lon: 80.6235 },
  { name: 'Clock Tower, Matale', lat: 7.4675, lon: 80.6234 },
  { name: 'Gampola Bus Stand, Gampola', lat: 7.1643, lon: 80.5696 },
  { name: 'Nawalapitiya Railway Station, Nawalapitiya', lat: 7.0488, lon: 80.5335 },
  { name: 'Gregory Lake, Nuwara Eliya', lat: 6.9612, lon: 80.7749 },
  { name: 'Digana Town, Digana', lat: 7.2983, lon: 80.735 },
  { name: 'Kundasale Junction, Kundasale', lat: 7.2818, lon: 80.683 },
  { name: 'Ampitiya Road, Ampitiya', lat: 7.2817, lon: 80.657 },
];

/** The addresses whose name holds every word of the query (any case), at most five. Pure. */
export function searchAddresses(query: string) {
  const words = query
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  if (words.length === 0) return [];
  return DEMO_ADDRESSES.filter((address) => words.every((word) => address.name.toLowerCase().includes(word))).slice(0, 5);
}

/**
 * A local address search that answers Nominatim's `GET /search?q=…&format=jsonv2`
 * (its `display_name`, and `lat` and `lon` as text) from DEMO_ADDRESSES: the
 * subscribe page's address box works in the demo with no network.
 */
export async function startAddressSearch(options: { log?: (message: string) => void } = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' || url.pathname !== '/search') return void res.writeHead(404).end();
    const found = searchAddresses(url.searchParams.get('q') ?? '');
    options.log?.(`address search: "${(url.searchParams.get('q') ?? '').slice(0, 60)}" → ${found.length} found`);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(found.map((place) => ({ display_name: place.name, lat: String(place.lat), lon: String(place.lon) }))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
