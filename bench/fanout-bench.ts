/**
 * `npm run bench:fanout`: one event fanned out to 100,000 active
 * subscriptions through a no-op Push target. Times the claim of every
 * ledger row (the hand-over's first page, then the expander's pages) and
 * compares it with the floor in the same run: one INSERT … SELECT of as
 * many rows into the same ledger table (the database's fastest way to write
 * them). Then the dispatch of those rows through the no-op target (lease,
 * settle: the database's share of each delivery).
 */
import { servicesOf } from '../core/app.ts';
import { benchApp, memorySampler, perSecond } from './bench-support.ts';

const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 100_000);
const bench = await benchApp(['bench-noop-push']);
const { app } = bench;
const knex = servicesOf(app).database.knex;
console.log(`database: ${servicesOf(app).database.description}; ${SUBSCRIPTIONS} subscriptions`);

// Subscriptions with a mix of filters that all match the event, so every one is compiled and evaluated.
await knex.raw(
  `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
   SELECT 'bench-' || g, 'bench ' || g, 'utility.power-outages',
          CASE g % 4 WHEN 0 THEN '{}'::jsonb
                     WHEN 1 THEN '{"feeders":["F12"]}'::jsonb
                     WHEN 2 THEN '{"locationKeywords":["kandy"]}'::jsonb
                     ELSE '{"keywords":["peradeniya"],"eventTypes":["NewOutage"]}'::jsonb END,
          'Push', 'alerts-bench-' || g, 'Anonymous', true
     FROM generate_series(1, ?) AS g`,
  [SUBSCRIPTIONS],
);
await knex.raw('ANALYZE notification_subscriptions');
const expectedMatches = SUBSCRIPTIONS;

const event = {
  feedId: 'utility.power-outages',
  eventType: 'NewOutage',
  sourceKey: 'PO-BENCH',
  fields: { feeder: 'F12', areas: 'Kandy, Peradeniya' },
  sourcePayload: { id: 'PO-BENCH', feeder: 'F12', areas: ['Kandy', 'Peradeniya'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null },
};

const memory = memorySampler();
const ledgerRows = () =>
  knex('notification_delivery_ledger')
    .count({ n: '*' })
    .then(([row]) => Number(row.n));
let started = performance.now();
const result = await servicesOf(app).pipeline.processNotificationEvents([event]);
const handOverMs = performance.now() - started;
while ((await ledgerRows()) < expectedMatches) await new Promise((resolve) => setTimeout(resolve, 20));
const pipelineMs = performance.now() - started;
const pipelineMemory = memory.stop();

// The dispatcher was woken with the first page; wait until nothing is left to send.
const undelivered = () =>
  knex('notification_delivery_ledger')
    .whereNot({ status: 'delivered' })
    .count({ n: '*' })
    .then(([row]) => Number(row.n));
while ((await undelivered()) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
const dispatchMs = performance.now() - started;
const delivered = await ledgerRows();

// The floor: one INSERT … SELECT of as many rows, with the ledger's unique key, into the same table.
const [{ id: eventId }] = await knex('notification_events').select('id').limit(1);
started = performance.now();
await knex.raw(
  `INSERT INTO notification_delivery_ledger (subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, status)
   SELECT id, 'RAW', 'NewOutage', feed_id, 'RAW', ?, provider, 'delivered' FROM notification_subscriptions WHERE feed_id = 'utility.power-outages' AND is_active`,
  [eventId],
);
const rawMs = performance.now() - started;

const rows = expectedMatches;
console.log(
  `ProcessNotificationEvents: hand-over (first page, in its transaction) ${handOverMs.toFixed(0)} ms; all ${rows} rows claimed after ${pipelineMs.toFixed(0)} ms`,
);
console.log(`  ledger rows/s:  ${perSecond(rows, pipelineMs)}  (hand-over claimed ${result.claimedCount})`);
console.log(`  peak heap +${pipelineMemory.heapMiB.toFixed(1)} MiB, rss +${pipelineMemory.rssMiB.toFixed(1)} MiB`);
console.log(`floor: one INSERT … SELECT of ${expectedMatches} ledger rows: ${rawMs.toFixed(0)} ms (${perSecond(expectedMatches, rawMs)} rows/s)`);
console.log(`ratio claim/floor time: ${(pipelineMs / rawMs).toFixed(2)}x`);
console.log(
  `claim and dispatch through the no-op target: ${delivered} delivered ${dispatchMs.toFixed(0)} ms after the call (${perSecond(delivered, dispatchMs)}/s)`,
);

await bench.close();
