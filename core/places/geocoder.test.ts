import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeocoder, foundPlaces } from './geocoder.ts';

describe("foundPlaces: a geocoder's answer as places", () => {
  it("reads Nominatim's jsonv2 entries (numbers as text), at most five", () => {
    const entry = (n: number) => ({ place_id: n, display_name: `Place ${n}, Kandy, Sri Lanka`, lat: '7.2906', lon: '80.6337', type: 'house' });
    expect(foundPlaces([entry(1)])).toEqual([{ name: 'Place 1, Kandy, Sri Lanka', lat: 7.2906, lon: 80.6337 }]);
    expect(foundPlaces(Array.from({ length: 9 }, (_, i) => entry(i)))).toHaveLength(5);
  });

  it.each<[string, unknown]>([
    ['not a list', { error: 'Unable to geocode' }],
    ['no name', [{ lat: '7', lon: '80' }]],
    ['a latitude out of range', [{ display_name: 'x', lat: '97', lon: '80' }]],
    ['a longitude that is no number', [{ display_name: 'x', lat: '7', lon: 'east' }]],
    ['null', [null]],
  ])('leaves out %s', (_name, answer) => {
    expect(foundPlaces(answer)).toEqual([]);
  });

  it('keeps a name to one line of 200 characters', () => {
    const [place] = foundPlaces([{ display_name: `Line one\nLine two\u2028${'x'.repeat(300)}`, lat: '7', lon: '80' }]);
    expect(place!.name.startsWith('Line one Line two ')).toBe(true);
    expect(place!.name).not.toMatch(/[\n\u2028]/);
    expect(place!.name.length).toBe(200);
  });
});

describe('createGeocoder: the address search through the service', () => {
  let server: http.Server;
  const asked: string[] = [];
  let baseUrl = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      asked.push(`${url.pathname} ${url.searchParams.get('q')} ${url.searchParams.get('format')} ${req.headers['user-agent']}`);
      if (url.searchParams.get('q') === 'broken') return void res.writeHead(503).end();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify([{ display_name: `${url.searchParams.get('q')}, Kandy`, lat: '7.29', lon: '80.63' }]));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/nominatim/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('asks /search for jsonv2 with its own user agent, once for the same address, and says when the geocoder fails', async () => {
    const geocoder = createGeocoder({ baseUrl, timeoutSeconds: 5, requestsPerSecond: 100, userAgent: 'np-test' });
    asked.length = 0;
    expect(await geocoder.search('Temple Road')).toEqual({ kind: 'found', places: [{ name: 'Temple Road, Kandy', lat: 7.29, lon: 80.63 }] });
    expect(await geocoder.search(' temple road ')).toEqual({ kind: 'found', places: [{ name: 'Temple Road, Kandy', lat: 7.29, lon: 80.63 }] });
    expect(asked).toEqual(['/nominatim/search Temple Road jsonv2 np-test']);
    expect(await geocoder.search('broken')).toEqual({ kind: 'unavailable', reason: 'the geocoder answered 503' });
    await geocoder.close();
  });

  it('keeps to its rate: a search waits its turn up to two seconds, and is busy beyond', async () => {
    const geocoder = createGeocoder({ baseUrl, timeoutSeconds: 5, requestsPerSecond: 1, userAgent: 'np-test' });
    asked.length = 0;
    const answers = await Promise.all(['a1', 'a2', 'a3', 'a4'].map((q) => geocoder.search(q)));
    // At 1 a second: the first now, the second in 1 s, the third in 2 s; the fourth would wait 3 s.
    expect(answers.map((answer) => answer.kind)).toEqual(['found', 'found', 'found', 'busy']);
    expect(asked).toHaveLength(3);
    await geocoder.close();
  });
});
