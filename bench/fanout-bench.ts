/**
 * `npm run bench:fanout`: one event fanned out to 100,000 active
 * subscriptions through a no-op Push target. Prints matched/s and ledger
 * rows/s of ProcessNotificationEvents, and their ratio to a raw multi-row
 * INSERT of 100,000 rows into the same ledger table in the same run; then
 * the dispatch of those rows through the no-op target.
 */
import { buildApp } from '../core/app.ts';
import { benchDatabase, benchPluginsDir, memorySampler, perSecond, removeDir } from './bench-support.ts';

const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 100_000);
const database = await benchDatabase();
const pluginsDir = benchPluginsDir(['bench-noop-push']);
const app = await buildApp({
  env: database ? { ConnectionStrings__DefaultConnection: database.url, Logging__Level: 'warn', Database__PoolMax: '10' } : { Logging__Level: 'warn', Database__EmbeddedPath: `${pluginsDir}-pglite` },
  pluginsDir,
  workers: false,
});
await app.ready();
const knex = app.services.database.knex;
console.log(`database: ${app.services.database.description}; ${SUBSCRIPTIONS} subscriptions`);

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
let started = performance.now();
const result = await app.services.pipeline.processNotificationEvents([event]);
const pipelineMs = performance.now() - started;
const pipelineMemory = memory.stop();
if (result.claimedCount !== expectedMatches) throw new Error(`expected ${expectedMatches} claims, got ${result.claimedCount}`);

// The call woke the dispatcher already; drain alongside it and wait until nothing is left to send.
started = performance.now();
await app.services.dispatcher.drain();
const undelivered = () => knex('notification_delivery_ledger').whereNot({ status: 'delivered' }).count({ n: '*' }).then(([row]) => Number(row.n));
while ((await undelivered()) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
const dispatchMs = performance.now() - started;
const delivered = rowsDelivered(await knex('notification_delivery_ledger').count({ n: '*' }));

// The baseline: the same number of ledger rows by plain multi-row INSERTs (5,000 rows each) into the same table.
const [{ id: eventId }] = await knex('notification_events').select('id').limit(1);
const ids: number[] = await knex('notification_subscriptions').orderBy('id').limit(result.claimedCount).pluck('id');
started = performance.now();
for (let offset = 0; offset < ids.length; offset += 5000) {
  await knex('notification_delivery_ledger').insert(
    ids.slice(offset, offset + 5000).map((id) => ({
      subscription_id: id, source_key: 'RAW', event_type: 'NewOutage', feed_id: 'utility.power-outages',
      item_key: 'RAW', event_id: eventId, provider: 'Push', status: 'pending',
    })),
  );
}
const rawMs = performance.now() - started;

const rows = result.claimedCount;
function rowsDelivered(counted: Array<Record<string, unknown>>) {
  return Number(counted[0].n);
}
console.log(`ProcessNotificationEvents: ${rows} matched and claimed in ${pipelineMs.toFixed(0)} ms`);
console.log(`  matched/s:      ${perSecond(result.matchedSubscriptionCount, pipelineMs)}`);
console.log(`  ledger rows/s:  ${perSecond(rows, pipelineMs)}`);
console.log(`  peak heap +${pipelineMemory.heapMiB.toFixed(1)} MiB, rss +${pipelineMemory.rssMiB.toFixed(1)} MiB`);
console.log(`raw multi-row INSERT of ${ids.length} ledger rows: ${rawMs.toFixed(0)} ms (${perSecond(ids.length, rawMs)} rows/s)`);
console.log(`ratio pipeline/raw time: ${(pipelineMs / rawMs).toFixed(2)}x (target <= 1.5x)`);
console.log(`dispatch through the no-op target: ${delivered} delivered in ${dispatchMs.toFixed(0)} ms (${perSecond(delivered, dispatchMs)}/s)`);

await app.close();
await database?.drop();
removeDir(pluginsDir);
removeDir(`${pluginsDir}-pglite`);
