/**
 * `npm run bench:places`: one outage with a shape, fanned out to 200,000
 * subscriptions by place (spread over 20 km round Kandy, radii 0 to 500 m)
 * of which about 2 % are within reach of the shape, through a no-op Push
 * target; against the same number of subscribers matched by
 * `locationKeywords` among 200,000 keyword subscriptions. Each run is a
 * fresh database; the two kinds alternate, ROUNDS times (default 2), and
 * the medians are compared (goal: places ≤ 1.2× keywords).
 *
 * Times the call of ProcessNotificationEvents to the last delivery (the
 * claim through the cell index and the exact distance, then the dispatch),
 * and, for places, what the index alone costs: the query of the
 * subscriptions whose cells meet the shape's.
 *
 * PLACES (default 200,000) sets the count; ONLY=places (or keywords) runs
 * one kind (`PLACES=1000000 ONLY=places`: the match time at a million);
 * KEEP_DB=1 keeps each database and prints its address.
 */
import { servicesOf } from '../core/app.ts';
import { placeCells, placeReaches, shapeCells, type AreaGeometry, type Place } from '../core/places/index.ts';
import { benchApp, median, perSecond } from './bench-support.ts';

const COUNT = Number(process.env.PLACES ?? 200_000);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const ONLY = process.env.ONLY;
const CHUNK = 10_000;

// The region: 0.18° square round Kandy (about 20 km across); the shape a square in its middle.
const [SOUTH, WEST, SPAN] = [7.2, 80.55, 0.18];
const SIDE = Number(process.env.SHAPE_DEGREES ?? 0.0205);
const [CLAT, CLON] = [SOUTH + SPAN / 2, WEST + SPAN / 2];
const SHAPE: AreaGeometry = {
  type: 'Polygon',
  coordinates: [
    [
      [CLON - SIDE / 2, CLAT - SIDE / 2],
      [CLON + SIDE / 2, CLAT - SIDE / 2],
      [CLON + SIDE / 2, CLAT + SIDE / 2],
      [CLON - SIDE / 2, CLAT + SIDE / 2],
      [CLON - SIDE / 2, CLAT - SIDE / 2],
    ],
  ],
};
const RADII = [0, 100, 250, 500];

/** The same places every run (a seeded generator). */
function seededPlaces(count: number): Place[] {
  let seed = 20261128;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  return Array.from({ length: count }, (_, i) => ({
    lat: Math.round((SOUTH + next() * SPAN) * 1e5) / 1e5,
    lon: Math.round((WEST + next() * SPAN) * 1e5) / 1e5,
    radiusMeters: RADII[i % RADII.length]!,
  }));
}

const started = performance.now();
const places = seededPlaces(COUNT);
const reaches = places.map((place) => placeReaches(place, SHAPE));
const reached = reaches.filter(Boolean).length;
const cells = ONLY === 'keywords' ? [] : places.map((place) => placeCells([place]));
console.log(
  `${COUNT} places made and their cells in ${(performance.now() - started).toFixed(0)} ms; the shape reaches ${reached} (${((100 * reached) / COUNT).toFixed(2)} %)`,
);

interface Run {
  kind: 'places' | 'keywords';
  claimMs: number;
  lastMs: number;
  indexMs?: number;
  candidates?: number;
}

async function run(kind: 'places' | 'keywords'): Promise<Run> {
  const bench = await benchApp(['bench-noop-push']);
  const { app } = bench;
  const knex = servicesOf(app).database.knex;
  try {
    for (let from = 0; from < COUNT; from += CHUNK) {
      const rows = places.slice(from, from + CHUNK).map((place, k) => {
        const g = from + k;
        // Keywords: the same subscribers as the shape reaches name the outage's area (spread alike), the rest one of 97 other towns.
        const filter = kind === 'places' ? { places: [place] } : { locationKeywords: [reaches[g] ? 'Kandy' : `Town ${g % 97}`] };
        return { g, filter, cells: kind === 'places' ? cells[g] : null };
      });
      await knex.raw(
        `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active, place_cells)
         SELECT 'bench-' || (e->>'g'), 'bench', 'utility.power-outages', e->'filter', 'Push', 'alerts-bench-' || (e->>'g'), 'Anonymous', true,
                CASE WHEN e->'cells' = 'null'::jsonb THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(e->'cells'))::bigint[] END
           FROM jsonb_array_elements(?::jsonb) AS e`,
        [JSON.stringify(rows)],
      );
    }
    await knex.raw('ANALYZE notification_subscriptions');
    const expected = reached;
    const event = {
      feedId: 'utility.power-outages',
      eventType: 'NewOutage',
      sourceKey: `PO-BENCH-${kind}`,
      fields: { feeder: 'F12', areas: 'Kandy' },
      ...(kind === 'places' ? { geometry: SHAPE } : {}),
      sourcePayload: { id: `PO-BENCH-${kind}`, feeder: 'F12', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null },
    };
    const count = (status?: string) =>
      (status ? knex('notification_delivery_ledger').where({ status }) : knex('notification_delivery_ledger'))
        .count({ n: '*' })
        .then(([row]) => Number(row!.n));
    const begun = performance.now();
    await servicesOf(app).pipeline.processNotificationEvents([event]);
    while ((await count()) < expected) await new Promise((resolve) => setTimeout(resolve, 10));
    const claimMs = performance.now() - begun;
    while ((await count('delivered')) < expected) await new Promise((resolve) => setTimeout(resolve, 10));
    const lastMs = performance.now() - begun;
    const rows = await count();
    if (rows !== expected) throw new Error(`${kind}: ${rows} ledger rows, ${expected} expected`);
    if (kind === 'keywords') return { kind, claimMs, lastMs };
    // What the index alone costs: the subscriptions whose cells meet the shape's, counted.
    const shape = shapeCells(SHAPE)!;
    const asked = performance.now();
    const [{ n }] = (await knex.raw(`SELECT count(*)::int AS n FROM notification_subscriptions WHERE place_cells && ?::bigint[]`, [`{${shape.join(',')}}`]))
      .rows;
    return { kind, claimMs, lastMs, indexMs: performance.now() - asked, candidates: n };
  } finally {
    await bench.close(Boolean(process.env.KEEP_DB));
  }
}

const runs: Run[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const kind of ONLY === 'places' || ONLY === 'keywords' ? [ONLY as 'places' | 'keywords'] : (['keywords', 'places'] as const)) {
    const result = await run(kind);
    runs.push(result);
    console.log(
      `${kind.padEnd(8)} round ${round + 1}: all ${reached} rows claimed after ${result.claimMs.toFixed(0)} ms, last delivered after ${result.lastMs.toFixed(0)} ms (${perSecond(reached, result.lastMs)}/s)` +
        (result.indexMs === undefined ? '' : `; the cell index alone: ${result.candidates} candidates in ${result.indexMs.toFixed(0)} ms`),
    );
  }
}
const of = (kind: string, field: 'claimMs' | 'lastMs') => median(runs.filter((r) => r.kind === kind).map((r) => r[field]));
if (ONLY !== 'keywords') console.log(`median, places: claimed ${of('places', 'claimMs').toFixed(0)} ms, last ${of('places', 'lastMs').toFixed(0)} ms`);
if (!ONLY) {
  console.log(`median, keywords: claimed ${of('keywords', 'claimMs').toFixed(0)} ms, last ${of('keywords', 'lastMs').toFixed(0)} ms`);
  console.log(`ratio places/keywords, call → last delivery: ${(of('places', 'lastMs') / of('keywords', 'lastMs')).toFixed(2)}x (goal ≤ 1.2)`);
}
