/**
 * `npm run bench:push`: 10,000 push deliveries through the delivery-push
 * target (batches of 500, as core's dispatcher hands them over) against the
 * ntfy double, then the same 10,000 JSON publishes with raw undici (same
 * connections, same in-flight bound), in one run. Prints deliveries/s of
 * both and their ratio (goal: target >= 0.8 x raw). The target publishes
 * through undici's lower-level `dispatch` API, so a third line times raw
 * `dispatch` too: the target's own cost against the API it is built on.
 */
import { Pool } from 'undici';
import { createPluginTestContext, type DeliveryRequest, type DeliveryTarget } from '#plugin-api';
import { manifest } from '../index.ts';
import { DEFAULT_PUBLISHER_TOKEN, startPushServerDouble } from '../../../test/doubles/push-server-double.ts';
import { median } from '../../../bench/bench-support.ts';

const TOTAL = 10_000;
const BATCH = 500;
/** Rounds alternate between the two paths and the median is reported: one machine, noisy neighbours. */
const ROUNDS = 5;

const double = await startPushServerDouble();
const context = createPluginTestContext(manifest, {
  env: { Notifications__Push__BaseUrl: double.baseUrl, Notifications__Push__PublishToken: DEFAULT_PUBLISHER_TOKEN },
  topicAllowlist: { topics: ['utility-power-outages'], prefixes: [] },
});
const settings = context.config['Notifications:Push'];
const inFlight = settings.Connections * settings.RequestsPerConnection;
const target: DeliveryTarget = (await manifest.setup!(context)).target!;

const topics = ['utility-power-outages', ...Array.from({ length: 3 }, () => target.prepareDestination(undefined, { scope: 'Anonymous' }))];
const requests: DeliveryRequest[] = Array.from({ length: TOTAL }, (_, i) => ({
  ledgerId: i + 1,
  attempt: 1,
  subscription: {
    id: i % 4,
    publicId: `p${i % 4}`,
    displayName: 'bench',
    feedId: 'utility.power-outages',
    provider: 'Push',
    destination: topics[i % 4],
    scope: 'System',
  },
  event: { feedId: 'utility.power-outages', eventType: 'NewOutage', sourceKey: `PO-${i}`, itemKey: `PO-${i}`, fields: {}, sourcePayload: {} },
  rendered: {
    title: `Power outage: Kandy ${i}`,
    body: `Feeder: F${i % 40}\nAreas: Kandy, Peradeniya\nSince: 22 Nov 2026, 08:15 UTC\nCause: Fallen line`,
    sequenceId: `po-PO-${i}`,
    tags: ['warning', 'electric_plug'],
    priority: 'High',
  },
}));
// The raw run sends the very bodies the target sends (the target's own mapping, done the same way by hand).
const rawBodies = requests.map((r) => ({
  topic: r.subscription.destination,
  title: r.rendered.title,
  message: r.rendered.body,
  priority: 4,
  tags: [...r.rendered.tags],
  sequence_id: r.rendered.sequenceId,
}));

async function viaTarget(): Promise<number> {
  const signal = new AbortController().signal;
  let delivered = 0;
  for (let start = 0; start < TOTAL; start += BATCH) {
    const outcomes = await target.deliver!(requests.slice(start, start + BATCH), signal);
    delivered += outcomes.filter((o) => o.kind === 'delivered').length;
  }
  return delivered;
}

const pool = new Pool(double.baseUrl, { connections: settings.Connections });
const headers = { 'content-type': 'application/json', authorization: `Bearer ${DEFAULT_PUBLISHER_TOKEN}` };
async function viaRawUndici(): Promise<number> {
  let next = 0;
  let delivered = 0;
  const worker = async () => {
    while (next < TOTAL) {
      const res = await pool.request({ method: 'POST', path: '/', headers, body: JSON.stringify(rawBodies[next++]) });
      await res.body.dump();
      if (res.statusCode === 200) delivered++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return delivered;
}

/** The same publishes through `pool.dispatch` with a handler that only waits for the end. */
async function viaRawDispatch(): Promise<number> {
  let next = 0;
  let delivered = 0;
  const one = (body: string) =>
    new Promise<number>((resolve) => {
      let status = 0;
      pool.dispatch(
        { method: 'POST', path: '/', headers, body },
        {
          onRequestStart: () => undefined,
          onResponseStart: (_c, code) => void (status = code),
          onResponseData: () => undefined,
          onResponseEnd: () => resolve(status),
          onResponseError: () => resolve(0),
        },
      );
    });
  const worker = async () => {
    while (next < TOTAL) if ((await one(JSON.stringify(rawBodies[next++]))) === 200) delivered++;
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return delivered;
}

async function measure(run: () => Promise<number>): Promise<number> {
  double.reset();
  const started = performance.now();
  const delivered = await run();
  const seconds = (performance.now() - started) / 1000;
  if (delivered !== TOTAL || double.allMessages().length !== TOTAL)
    throw new Error(`delivered ${delivered}, stored ${double.allMessages().length} of ${TOTAL}`);
  return TOTAL / seconds;
}

try {
  for (let warm = 0; warm < 2; warm++) {
    await measure(viaTarget); // warm-up: JIT and connections, both paths
    await measure(viaRawUndici);
    await measure(viaRawDispatch);
  }
  const targetRates: number[] = [];
  const rawRates: number[] = [];
  const dispatchRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    targetRates.push(await measure(viaTarget));
    rawRates.push(await measure(viaRawUndici));
    dispatchRates.push(await measure(viaRawDispatch));
  }
  const fmt = (rates: number[]) => rates.map((r) => Math.round(r)).join(', ');
  const ratio = median(targetRates) / median(rawRates);
  process.stdout.write(
    `push bench: ${TOTAL} deliveries, ${settings.Connections} connections, ${inFlight} in flight, batches of ${BATCH}, node ${process.version}\n` +
      `  delivery-push target: ${Math.round(median(targetRates))} deliveries/s (rounds: ${fmt(targetRates)})\n` +
      `  raw undici request:   ${Math.round(median(rawRates))} deliveries/s (rounds: ${fmt(rawRates)})\n` +
      `  raw undici dispatch:  ${Math.round(median(dispatchRates))} deliveries/s (rounds: ${fmt(dispatchRates)})\n` +
      `  ratio target/raw request:  ${ratio.toFixed(2)} (goal >= 0.80)\n` +
      `  ratio target/raw dispatch: ${(median(targetRates) / median(dispatchRates)).toFixed(2)}\n`,
  );
  if (ratio < 0.8) process.exitCode = 1;
} finally {
  await target.close?.();
  await pool.close();
  await double.close();
}
