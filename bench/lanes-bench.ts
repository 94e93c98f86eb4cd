/**
 * `npm run bench:lanes`: every channel at its own speed, through the real
 * service (`node core/main.ts`, on PostgreSQL). PUSH=20000 push and
 * TEXTS=2000 text subscribers; a push sink in a process of its own; a
 * Twilio-shaped gateway here that takes RATE=20 texts a second (429 with
 * Retry-After beyond), and the service told the same rate
 * (NotificationPipeline__Rates__Sms).
 *
 * Three outages, one after the other: a warm-up and then one that reach
 * the push subscribers only (push alone), and one that reaches both. It prints push's poll → last
 * message in each, and their ratio (goal ≤ 1.1: texts do not slow push);
 * the gateway's busiest second (goal ≤ the rate + 10 %) and its 429s; and
 * the texts' poll → last against TEXTS / RATE, the rate's floor (goal ≤ 1.1).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { startFeedApiServer } from '../demo/sample-feed/feed-api-server.ts';
import { startServiceProcess } from '../demo/service-process.ts';
import { startTwilioGateway } from '../demo/sms-gateway/twilio-gateway.ts';
import { freeLoopbackPort } from '../demo/web/loopback.ts';
import { benchDatabase } from './bench-support.ts';
import { machineCpu, ratio, waitFor, wallClock } from './e2e/measure.ts';

const PUSH = Number(process.env.PUSH ?? 20_000);
const TEXTS = Number(process.env.TEXTS ?? 2_000);
const RATE = Number(process.env.RATE ?? 20);
const PERIOD_SECONDS = 5;
const TOKEN = 'tk_benchbenchbenchbenchbenchbenc';

const database = await benchDatabase();
if (!database) throw new Error('bench:lanes needs the PostgreSQL server (TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432)');
const cleanups: Array<() => Promise<unknown> | unknown> = [() => database.drop()];
try {
  const sinkProcess = spawn(process.execPath, ['bench/e2e/push-sink.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => sinkProcess.kill('SIGTERM'));
  const sinkPort = await new Promise<number>((resolve) =>
    createInterface({ input: sinkProcess.stdout! }).once('line', (line) => resolve(JSON.parse(line).port)),
  );
  const sinkUrl = `http://127.0.0.1:${sinkPort}`;
  const sink = async () => (await fetch(`${sinkUrl}/stats`)).json() as Promise<{ publishes: number; distinct: number; first: number; last: number }>;

  const port = await freeLoopbackPort();
  const serviceUrl = `http://127.0.0.1:${port}`;
  const gateway = await startTwilioGateway({ accountSid: 'ACbench', authToken: 'bench-token-0123456789', number: '+15005550006', publicBaseUrl: serviceUrl });
  cleanups.push(() => gateway.close());
  gateway.limit(RATE, 1);

  let outages: unknown[] = [];
  let changedAt = 0;
  let servedAt = 0;
  const feed = await startFeedApiServer({
    apiKey: 'bench-feed-key',
    answers: {
      '/power-outages': () => {
        if (changedAt > 0 && servedAt === 0) servedAt = wallClock();
        return { outages };
      },
      '/scheduled-outages': () => ({ outages: [] }),
    },
    etags: () => true,
  });
  cleanups.push(() => feed.close());

  const output: string[] = [];
  const service = startServiceProcess(
    {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      Logging__Level: 'warn',
      Server__Port: String(port),
      PublicBaseUrl: serviceUrl,
      ConnectionStrings__DefaultConnection: database.url,
      ExternalProvider__BaseUrl: feed.baseUrl,
      ExternalProvider__ApiKey: 'bench-feed-key',
      PowerOutages__Enabled: 'true',
      PowerOutages__PollingIntervalSeconds: String(PERIOD_SECONDS),
      ScheduledOutages__Enabled: 'false',
      Notifications__Push__BaseUrl: sinkUrl,
      Notifications__Push__PublishToken: TOKEN,
      NotificationPipeline__Rates__Sms: String(RATE),
      ...gateway.env,
    },
    serviceUrl,
    (chunk) => output.push(chunk.toString()),
  );
  cleanups.push(() => service.stop());
  await service.ready.catch((error: unknown) => {
    process.stderr.write(output.join(''));
    throw error;
  });

  // Push subscribers hear of feeders FA and FB; text subscribers of FB only.
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  cleanups.push(() => db.end());
  await db.query(
    `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
     SELECT 'push-' || g, 'p', 'utility.power-outages', '{"feeders":["FA","FB"]}', 'Push', 'alerts-bench-' || g, 'Anonymous', true FROM generate_series(1, $1::int) g`,
    [PUSH],
  );
  await db.query(
    `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
     SELECT 'sms-' || g, 's', 'utility.power-outages', '{"feeders":["FB"]}', 'Sms', '+9477' || lpad(g::text, 7, '0'), 'Anonymous', true FROM generate_series(1, $1::int) g`,
    [TEXTS],
  );
  await db.query('ANALYZE notification_subscriptions');

  const outage = async (id: string, feeder: string) => {
    await fetch(`${sinkUrl}/reset`, { method: 'POST' });
    servedAt = 0;
    changedAt = wallClock();
    // The earlier outage stays listed (ongoing): only the new one is announced.
    outages = [...outages, { id, feeder, areas: ['Kandy'], timeOff: '2026-11-28T08:15:00+05:30', timeRestored: null, cause: null }];
    await waitFor(async () => (await sink()).distinct >= PUSH, 600_000, 20);
    return (await sink()).last - servedAt;
  };

  const load = machineCpu();
  // A first outage warms the service up (as one that has been running is), so the two measured ones compare alike.
  await outage('PO-WARM-UP', 'FA');
  // BOTH_FIRST=1: the outage with texts before the one without (the order of the two, as a check on it).
  let alone = 0;
  if (!process.env.BOTH_FIRST) alone = await outage('PO-PUSH-ALONE', 'FA');
  const textsBefore = gateway.texts.length;
  const withTexts = await outage('PO-BOTH', 'FB');
  const polledAt = servedAt;
  await waitFor(async () => gateway.texts.length - textsBefore >= TEXTS, 3_600_000, 100);
  if (process.env.BOTH_FIRST) alone = await outage('PO-PUSH-ALONE', 'FA');
  const textsLast = Math.max(...gateway.texts.slice(textsBefore).map((text) => text.at.getTime())) - polledAt;
  const floor = (TEXTS / RATE) * 1000;
  console.log(
    JSON.stringify({
      push: PUSH,
      texts: TEXTS,
      ratePerSecond: RATE,
      machine: { cores: load.cores },
      pushAloneSeconds: alone / 1000,
      pushWithTextsSeconds: withTexts / 1000,
      pushRatio: Number(ratio(withTexts, alone).toFixed(3)),
      textsLastSeconds: textsLast / 1000,
      textsFloorSeconds: floor / 1000,
      textsRatio: Number(ratio(textsLast, floor).toFixed(3)),
      gatewayBusiestSecond: gateway.busiestSecond(),
      gateway429s: gateway.throttled,
      textsTwice: gateway.texts.length - new Set(gateway.texts.map((text) => text.to)).size,
    }),
  );
  console.log(
    `push alone ${(alone / 1000).toFixed(2)} s, with ${TEXTS} texts ${(withTexts / 1000).toFixed(2)} s: ${ratio(withTexts, alone).toFixed(2)}× (goal ≤ 1.1)`,
  );
  console.log(
    `texts: last after ${(textsLast / 1000).toFixed(1)} s against ${TEXTS} / ${RATE} = ${(floor / 1000).toFixed(1)} s: ${ratio(textsLast, floor).toFixed(3)}× (goal ≤ 1.1); busiest second at the gateway ${gateway.busiestSecond()} (rate ${RATE}), 429s ${gateway.throttled}`,
  );
} finally {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
}
