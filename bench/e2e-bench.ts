/**
 * `npm run bench:e2e` (N=100000 by default; `N=1000000 npm run bench:e2e`):
 * the real service end to end, black-box, on PostgreSQL. It starts
 * `node core/main.ts` (what `npm start` runs) with a lean push sink in a
 * process of its own and a feed double here; creates subscribers (some
 * through the API, 32 at once from 250 addresses, to time creates; the rest
 * in SQL); serves one new outage; and measures poll → first and poll → last
 * message, the largest gap between two polls, and the service's peak RSS.
 * In the same run it measures the floor: one INSERT … SELECT of N rows into
 * a table with the ledger's unique key, plus N raw undici POSTs to the same
 * sink (the same connections and requests in flight as the push target).
 *
 * WARMUP=n (2000; 0: none): n deliveries of a planned outage to the other
 * feed's subscribers first, so the measured fan-out finds the service warm, as
 * a service that has been running is.
 *
 * APPRISE=1: the same N notifications through Debian's `apprise` CLI (one
 * ntfy URL per subscriber) to the same sink, and how much faster the service is.
 *
 * KILL_AFTER=n: kill -9 the service once n messages arrived, restart it,
 * and count what arrived twice (nothing may be lost).
 *
 * To compare settings: SERVICE_ENV='Key=value …' (service configuration),
 * SERVICE_NODE_OPTIONS (node flags; npm start's own flags, such as the heap
 * bounds, come after them and win), CONNECTIONS, CREATES. SERVICE_LOG=file
 * keeps the service's output (with --trace-gc or --cpu-prof, for profiling).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { Pool } from 'undici';
import { startFeedApiServer } from '../demo/sample-feed/feed-api-server.ts';
import { startServiceProcess } from '../demo/service-process.ts';
import { freeLoopbackPort } from '../demo/web/loopback.ts';
import { benchDatabase } from './bench-support.ts';
import { cpuSeconds, inParallel, largestGap, machineCpu, machineCpuSampler, postgresCpuSeconds, ratio, rssSampler, waitFor, wallClock } from './e2e/measure.ts';
import { FLOOR_SETTINGS, settingWords } from './e2e/floor-settings.ts';
import { rawPosts } from './e2e/raw-posts.ts';

const N = Number(process.env.N ?? 100_000);
const PERIOD_SECONDS = 5;
const CREATES = Number(process.env.CREATES ?? 3000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const IN_FLIGHT = 256;
const KILL_AFTER = Number(process.env.KILL_AFTER ?? 0);
/** Deliveries of a planned outage before the measured one, on the other feed, so the measured fan-out finds the service warm (as a running one is). */
const WARMUP = Number(process.env.WARMUP ?? 2000);
const TOKEN = 'tk_benchbenchbenchbenchbenchbenc';
/** SERVICE_ENV's KEY=value pairs. */
const SERVICE_SETTINGS: Record<string, string> = Object.fromEntries(
  (process.env.SERVICE_ENV ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => pair.split('=') as [string, string]),
);
/** The push target's bound on requests in flight: its connections times its requests per connection (16, or SERVICE_ENV's). */
const serviceInFlight = CONNECTIONS * Number(SERVICE_SETTINGS.Notifications__Push__RequestsPerConnection ?? 16);

const database = await benchDatabase();
if (!database) throw new Error('bench:e2e needs the PostgreSQL server (TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432)');
const cleanups: Array<() => Promise<unknown> | unknown> = [() => database.drop()];
const finish = async () => {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
};

try {
  // The push sink, in a process of its own so it is never the bottleneck of this one.
  const sinkProcess = spawn(process.execPath, ['bench/e2e/push-sink.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => sinkProcess.kill('SIGTERM'));
  const sinkPort = await new Promise<number>((resolve) => {
    createInterface({ input: sinkProcess.stdout! }).once('line', (line) => resolve(JSON.parse(line).port));
  });
  const sinkUrl = `http://127.0.0.1:${sinkPort}`;
  const sinkStats = async () => (await fetch(`${sinkUrl}/stats`)).json() as Promise<{ publishes: number; distinct: number; first: number; last: number }>;

  // The feed double: empty until the measured outage appears; every poll's time is kept.
  let outages: unknown[] = [];
  let planned: unknown[] = [];
  let changedAt = 0;
  let servedChange = 0;
  const polls: number[] = [];
  const feed = await startFeedApiServer({
    apiKey: 'bench-feed-key',
    answers: {
      '/power-outages': () => {
        const at = wallClock();
        polls.push(at);
        if (changedAt > 0 && servedChange === 0) servedChange = at;
        return { outages };
      },
      '/scheduled-outages': () => ({ outages: planned }),
    },
    etags: () => true,
  });
  cleanups.push(() => feed.close());

  const port = await freeLoopbackPort();
  const serviceUrl = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const startService = async () => {
    const started = startServiceProcess(
      {
        PATH: process.env.PATH ?? '',
        ...(process.env.SERVICE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SERVICE_NODE_OPTIONS } : {}),
        NODE_ENV: 'production',
        Logging__Level: 'warn',
        Server__Port: String(port),
        PublicBaseUrl: serviceUrl,
        ConnectionStrings__DefaultConnection: database.url,
        ExternalProvider__BaseUrl: feed.baseUrl,
        ExternalProvider__ApiKey: 'bench-feed-key',
        PowerOutages__Enabled: 'true',
        PowerOutages__PollingIntervalSeconds: String(PERIOD_SECONDS),
        PowerOutages__FeedTimeoutSeconds: '5',
        // The warm-up's feed; its digests and reminders at an hour far from now, so none goes out during the run.
        ScheduledOutages__Enabled: WARMUP > 0 ? 'true' : 'false',
        ScheduledOutages__PollingIntervalSeconds: String(PERIOD_SECONDS),
        ScheduledOutages__TimeZone: 'UTC',
        ScheduledOutages__DailyDigestHour: String((new Date().getUTCHours() + 12) % 24),
        ScheduledOutages__WeeklyDigestHour: String((new Date().getUTCHours() + 12) % 24),
        ScheduledOutages__ReminderHour: String((new Date().getUTCHours() + 12) % 24),
        Notifications__Push__BaseUrl: sinkUrl,
        Notifications__Push__PublishToken: TOKEN,
        Notifications__Push__Connections: String(CONNECTIONS),
        SubscriptionLimits__MaxPerIp: '100000',
        SubscriptionLimits__MaxPerIpPerDay: '100000',
        // Settings to compare, as KEY=value pairs: SERVICE_ENV='NotificationPipeline__FanoutPageSize=5000 …'
        ...SERVICE_SETTINGS,
      },
      serviceUrl,
      (chunk) => {
        output.push(chunk.toString());
        // SERVICE_LOG=file: the service's output kept whole (its own log lines, --trace-gc…), for profiling.
        if (process.env.SERVICE_LOG) appendFileSync(process.env.SERVICE_LOG, chunk);
      },
    );
    cleanups.push(() => started.stop());
    await started.ready.catch((error: unknown) => {
      process.stderr.write(output.join(''));
      throw error;
    });
    return started;
  };
  const service = await startService();

  // API creates: 32 at once, from 250 client addresses (through the trusted loopback proxy).
  const creates = Math.min(CREATES, N);
  const createPool = new Pool(serviceUrl, { connections: 32 });
  cleanups.push(() => createPool.close());
  const createCpuBefore = { service: cpuSeconds(service.pid), postgres: postgresCpuSeconds(), client: process.cpuUsage() };
  const createStarted = performance.now();
  await inParallel(creates, 32, async (index) => {
    const response = await createPool.request({
      method: 'POST',
      path: '/api/notification-subscriptions',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.0.${index % 250}` },
      body: JSON.stringify({ displayName: `bench ${index}`, feedId: 'utility.power-outages', delivery: { provider: 'Push' } }),
    });
    const text = await response.body.text();
    if (response.statusCode !== 201) throw new Error(`create answered ${response.statusCode}: ${text}`);
  });
  const createSeconds = (performance.now() - createStarted) / 1000;
  const createClientCpu = process.cpuUsage(createCpuBefore.client);
  const createCpu = {
    service: cpuSeconds(service.pid) - createCpuBefore.service,
    postgres: postgresCpuSeconds() - createCpuBefore.postgres,
    client: (createClientCpu.user + createClientCpu.system) / 1e6,
  };

  // The rest of the subscribers in SQL, with a mix of filters that all match the outage.
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  cleanups.push(() => db.end());
  await db.query(
    `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
     SELECT 'bench-' || g, 'bench ' || g, 'utility.power-outages',
            CASE g % 4 WHEN 0 THEN '{}'::jsonb WHEN 1 THEN '{"feeders":["F12"]}'::jsonb
                       WHEN 2 THEN '{"locationKeywords":["kandy"]}'::jsonb ELSE '{"keywords":["peradeniya"]}'::jsonb END,
            'Push', 'alerts-bench-' || g, 'Anonymous', true
       FROM generate_series(1, $1::int) AS g`,
    [N - creates],
  );
  if (WARMUP > 0) {
    await db.query(
      `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
       SELECT 'warm-' || g, 'warm ' || g, 'utility.scheduled-outages', '{}'::jsonb, 'Push', 'alerts-warm-' || g, 'Anonymous', true
         FROM generate_series(1, $1::int) AS g`,
      [WARMUP],
    );
  }
  await db.query('ANALYZE notification_subscriptions');

  /**
   * KILL_AFTER=n: kill -9 the service once n messages reached the sink, start
   * another, and report what arrived twice (only publishes in flight at the
   * kill may) and that the ledger holds one row per subscriber.
   */
  const killRun = async (first: typeof service) => {
    await waitFor(async () => (await sinkStats()).publishes >= KILL_AFTER, 3_600_000, 20);
    process.kill(first.pid!, 'SIGKILL');
    await first.exited;
    const atKill = (await sinkStats()).publishes;
    const inFlight = Number((await db.query(`SELECT count(*) AS n FROM notification_delivery_ledger WHERE status = 'delivering'`)).rows[0].n);
    const restartedAt = wallClock();
    const successor = await startService();
    await waitFor(async () => (await sinkStats()).distinct >= N, 3_600_000, 100);
    const done = await sinkStats();
    // The measured outage's rows (the warm-up's planned outage has its own).
    const ledger = (
      await db.query(`SELECT count(*) AS rows, count(DISTINCT subscription_id) AS subscribers FROM notification_delivery_ledger l
                                      JOIN notification_subscriptions s ON s.id = l.subscription_id
                                     WHERE s.provider = 'Push' AND l.feed_id = 'utility.power-outages'`)
    ).rows[0];
    await successor.stop();
    const line = (label: string, value: string) => `${label.padEnd(44)} ${value}`;
    console.log(`bench:e2e kill -9 — ${N.toLocaleString('en')} subscribers, PostgreSQL, node ${process.version}`);
    console.log(line('messages at the sink at the kill', `${atKill}`));
    console.log(line('ledger rows leased (in flight) at the kill', `${inFlight}`));
    console.log(
      line(
        'restart → every subscriber reached',
        `${((done.last - restartedAt) / 1000).toFixed(1)} s (the restarted instance takes back what its killed run held)`,
      ),
    );
    console.log(line('subscribers reached', `${done.distinct} of ${N}`));
    console.log(line('sent twice (at most the rows in flight)', `${done.publishes - done.distinct}`));
    console.log(line('ledger rows, subscribers with a row', `${ledger.rows}, ${ledger.subscribers}`));
    if (done.distinct !== N || done.publishes - done.distinct > inFlight || Number(ledger.rows) !== N) {
      console.log('FAILED: a subscriber was missed, a message went twice that was not in flight, or the ledger holds the wrong number of rows');
      process.exitCode = 1;
    }
  };

  // The warm-up: a planned outage to the other feed's subscribers, delivered before anything is measured.
  if (WARMUP > 0) {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    planned = [{ id: 'SO-WARM', date: tomorrow, start: '09:00', end: '13:00', feeder: 'F3', areas: ['Gampola'], reason: 'Maintenance', status: 'scheduled' }];
    await waitFor(async () => (await sinkStats()).publishes >= WARMUP, 120_000, 50);
  }

  // One new outage: poll → first and last message, poll gaps and RSS while it fans out.
  await waitFor(async () => polls.length >= 2, 30_000);
  await fetch(`${sinkUrl}/reset`, { method: 'POST' });
  const rss = rssSampler(service.pid);
  const pollsBefore = polls.length;
  const cpuBefore = { service: cpuSeconds(service.pid), sink: cpuSeconds(sinkProcess.pid), postgres: postgresCpuSeconds() };
  const machine = machineCpuSampler();
  cleanups.push(() => machine.stop());
  outages = [{ id: 'PO-BENCH', feeder: 'F12', areas: ['Kandy', 'Peradeniya'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null, cause: 'Fallen line' }];
  changedAt = wallClock();
  if (KILL_AFTER > 0) {
    await killRun(service);
    await finish();
    process.exit();
  }
  await waitFor(async () => (await sinkStats()).publishes >= N, 3_600_000, 100);
  const fanout = await sinkStats();
  machine.stop();
  const fanoutWindow = machine.between(servedChange, fanout.last);
  const cpu = {
    service: cpuSeconds(service.pid) - cpuBefore.service,
    sink: cpuSeconds(sinkProcess.pid) - cpuBefore.sink,
    postgres: postgresCpuSeconds() - cpuBefore.postgres,
    machineBusy: fanoutWindow.busy,
    machineIdle: fanoutWindow.idle,
  };
  // One more period, so a poll skipped at the very end of the fan-out still shows.
  await new Promise((resolve) => setTimeout(resolve, (PERIOD_SECONDS + 1) * 1000));
  const peakRss = rss.stop();
  const gap = largestGap(polls.slice(pollsBefore - 1)) / 1000;
  const firstSeconds = (fanout.first - servedChange) / 1000;
  const lastSeconds = (fanout.last - servedChange) / 1000;
  const duplicates = fanout.publishes - fanout.distinct;
  await service.stop();

  // The floor, in the same run: the database's fastest claim of N rows, and N raw POSTs.
  await db.query('CREATE TABLE bench_floor (LIKE notification_delivery_ledger INCLUDING DEFAULTS INCLUDING INDEXES)');
  const [{ event_id: eventId }] = (await db.query('SELECT id AS event_id FROM notification_events LIMIT 1')).rows;
  const postgresBeforeFloor = postgresCpuSeconds();
  const started = performance.now();
  await db.query(
    `INSERT INTO bench_floor (subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, status)
     SELECT id, 'PO-BENCH', 'NewOutage', feed_id, 'PO-BENCH', $1, provider, 'pending'
       FROM notification_subscriptions WHERE feed_id = 'utility.power-outages' AND is_active`,
    [eventId],
  );
  const floorInsertSeconds = (performance.now() - started) / 1000;
  const floorInsertCpu = postgresCpuSeconds() - postgresBeforeFloor;
  // The fastest of the floor's settings (requests in flight, pipelining; bench/e2e/floor-check.ts prints each), after a
  // warm-up (connections open, code compiled): the ratio is to the fastest way this client and sink can do the POSTs.
  await rawPosts({ sinkUrl, token: TOKEN, n: Math.min(N, 10_000), connections: CONNECTIONS, inFlight: IN_FLIGHT, pipelining: 1 });
  const floorRuns = [];
  for (const setting of FLOOR_SETTINGS(CONNECTIONS)) {
    await fetch(`${sinkUrl}/reset`, { method: 'POST' });
    const sinkBefore = cpuSeconds(sinkProcess.pid);
    const posts = await rawPosts({ sinkUrl, token: TOKEN, n: N, connections: CONNECTIONS, ...setting });
    floorRuns.push({ ...posts, setting, sink: cpuSeconds(sinkProcess.pid) - sinkBefore });
  }
  const fastest = floorRuns.sort((a, b) => a.seconds - b.seconds)[0];
  const floorPostSeconds = fastest.seconds;
  const floorCpu = { client: fastest.clientCpu, sink: fastest.sink };
  const floorSeconds = floorInsertSeconds + floorPostSeconds;

  // APPRISE=1: the same N notifications through Debian's Apprise CLI (one ntfy URL per subscriber), to the same sink.
  let appriseSeconds: number | undefined;
  if (process.env.APPRISE === '1') {
    const config = path.join(mkdtempSync(path.join(tmpdir(), 'apprise-')), 'urls.txt');
    writeFileSync(config, Array.from({ length: N }, (_, index) => `ntfy://127.0.0.1:${sinkPort}/alerts-bench-${index}`).join('\n'));
    await fetch(`${sinkUrl}/reset`, { method: 'POST' });
    const began = performance.now();
    await new Promise<void>((resolve, reject) => {
      const apprise = spawn('apprise', ['-t', 'Power outage: Kandy, Peradeniya', '-b', 'Feeder: F12\nAreas: Kandy, Peradeniya', '--config', config], {
        stdio: 'ignore',
      });
      apprise.on('error', reject);
      apprise.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`apprise exited ${code}`))));
    });
    appriseSeconds = (performance.now() - began) / 1000;
    const received = (await sinkStats()).publishes;
    if (received !== N) throw new Error(`apprise delivered ${received} of ${N}`);
  }

  const line = (label: string, value: string, target: string) => `${label.padEnd(44)} ${value.padStart(22)}   ${target}`;
  const s = (seconds: number) => `${seconds.toFixed(2)} s`;
  console.log(`bench:e2e — ${N.toLocaleString('en')} subscribers, poll period ${PERIOD_SECONDS} s, PostgreSQL, node ${process.version}`);
  console.log(line('API creates, 32 at once from 250 addresses', `${Math.round(creates / createSeconds)}/s`, `(target >= 1500/s; ${creates} creates)`));
  console.log(
    line(
      'CPU during the creates: service, PostgreSQL, client',
      `${createCpu.service.toFixed(1)} + ${createCpu.postgres.toFixed(1)} + ${createCpu.client.toFixed(1)} s`,
      `(in ${s(createSeconds)})`,
    ),
  );
  console.log(line('poll → first message', s(firstSeconds), '(target <= 1 s)'));
  console.log(line('poll → last message', `${s(lastSeconds)} (${Math.round(N / lastSeconds)}/s)`, `(target <= 1.3x the floor)`));
  console.log(line('RATIO to the floor', `${ratio(lastSeconds, floorSeconds).toFixed(2)}x`, '(target <= 1.3x)'));
  console.log(
    line(
      "the service's POSTs to the sink",
      `${Math.round(N / lastSeconds)}/s`,
      `(${CONNECTIONS} connections, up to ${serviceInFlight} in flight; the floor's raw POSTs: ${Math.round(N / floorPostSeconds)}/s, ${settingWords(fastest.setting)})`,
    ),
  );
  console.log(line('floor: INSERT … SELECT of N ledger rows', s(floorInsertSeconds), ''));
  console.log(
    line(
      'floor: N raw undici POSTs to the sink',
      `${s(floorPostSeconds)} (${Math.round(N / floorPostSeconds)}/s)`,
      `(${CONNECTIONS} connections, ${settingWords(fastest.setting)}: the fastest of ${floorRuns.length} settings)`,
    ),
  );
  console.log(line('floor: together', s(floorSeconds), ''));
  console.log(line('largest gap between two polls', s(gap), `(target <= ${PERIOD_SECONDS + 1} s)`));
  console.log(line('peak RSS of the service during the fan-out', `${peakRss.toFixed(0)} MiB`, '(target <= 300 MB)'));
  console.log(line('messages at the sink', `${fanout.publishes}`, `(${duplicates} duplicates)`));
  console.log(
    line(
      'CPU during the fan-out: service, PostgreSQL, sink',
      `${cpu.service.toFixed(1)} + ${cpu.postgres.toFixed(1)} + ${cpu.sink.toFixed(1)} s`,
      `(floor's POSTs: client ${floorCpu.client.toFixed(1)} + sink ${floorCpu.sink.toFixed(1)} s)`,
    ),
  );
  const perDelivery = (seconds: number) => `${((seconds * 1e6) / N).toFixed(1)} µs`;
  console.log(line('CPU per delivery: service, PostgreSQL, sink', `${perDelivery(cpu.service)} + ${perDelivery(cpu.postgres)} + ${perDelivery(cpu.sink)}`, ''));
  console.log(line('raw client CPU per POST (floor)', perDelivery(floorCpu.client), `(sink ${perDelivery(floorCpu.sink)} per POST)`));
  console.log(line('service busy during the fan-out', `${((100 * cpu.service) / lastSeconds).toFixed(0)}% of a core`, ''));
  const cores = machineCpu().cores;
  console.log(
    line(
      'machine idle, poll → last message',
      `${((cpu.machineIdle / (cpu.machineBusy + cpu.machineIdle)) * cores).toFixed(2)} of ${cores} cores`,
      `(busy ${cpu.machineBusy.toFixed(1)} s, idle ${cpu.machineIdle.toFixed(1)} s, from /proc/stat)`,
    ),
  );
  // With the cores fully used in both, 1.3 x the floor's time is about 1.3 x its CPU; the sink's share is not ours to cut.
  const floorCpuTotal = floorInsertCpu + floorCpu.client + floorCpu.sink;
  const budget = 1.3 * floorCpuTotal - cpu.sink;
  if (appriseSeconds !== undefined) {
    console.log(
      line('Apprise CLI, the same N notifications', s(appriseSeconds), `(the service ${(appriseSeconds / lastSeconds).toFixed(1)}x faster; target >= 10x)`),
    );
  }
  console.log(
    line(
      'CPU for 1.3x: service + PostgreSQL may use',
      `${budget.toFixed(1)} s`,
      `(1.3 x the floor's ${floorCpuTotal.toFixed(1)} s, less the sink's ${cpu.sink.toFixed(1)}; used ${(cpu.service + cpu.postgres).toFixed(1)} s)`,
    ),
  );
} finally {
  await finish();
}
