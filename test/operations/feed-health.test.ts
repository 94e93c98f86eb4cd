import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { databaseKinds, postgresReachable, preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, E2E_JWT_SECRET, realPluginsDir } from '../helpers/e2e-env.ts';
import { parseMetrics, sampleValue } from '../helpers/metrics-text.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const MONITOR = 'utility-power-outages.monitor';
const FEED = 'utility.power-outages';
const ALERT_TOPIC = 'ops-feed-health';
const STALE_AFTER = 3;
const admin = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' })}` };
const outage = { id: 'PO-H1', feeder: 'F12', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null };

interface Harness {
  feed: UtilityFeedDouble;
  push: PushServerDouble;
  pluginsDir: string;
  database: ProvisionedDatabase;
}

async function startHarness(kind: 'postgres' | 'pglite'): Promise<Harness> {
  const [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
  return { feed, push, pluginsDir: realPluginsDir(['utility-power-outages', 'delivery-push']), database: await provisionDatabase(kind) };
}

function startInstance(harness: Harness, extra: Record<string, string> = {}): Promise<TestApp> {
  return startTestApp({
    database: harness.database,
    pluginsDir: harness.pluginsDir,
    env: e2eEnv(harness.feed, harness.push, {
      PowerOutages__Enabled: 'true',
      PowerOutages__PollingIntervalSeconds: '3600',
      PowerOutages__FeedTimeoutSeconds: '1',
      NotificationPipeline__SystemSubscriptions__ScheduledOutages__FeedId: '',
      NotificationPipeline__SystemSubscriptions__ScheduledOutages__PushTopic: '',
      FeedHealth__StaleAfterPolls: String(STALE_AFTER),
      FeedHealth__AlertTopic: ALERT_TOPIC,
      Notifications__Push__AllowedTopics: ALERT_TOPIC,
      Metrics__DatabaseCacheSeconds: '0',
      ...extra,
    }),
  });
}

/** One poll on this instance, then every delivery it caused, on every instance. */
async function poll(instance: FastifyInstance, all: FastifyInstance[] = [instance]) {
  await servicesOf(instance).workers.runNow(MONITOR, { force: true });
  for (const app of all) await servicesOf(app).dispatcher.settle();
}

const alerts = (push: PushServerDouble) => push.messages(ALERT_TOPIC).map((message) => message.title);
const feedHealth = async (app: FastifyInstance) => {
  const response = await app.inject({ url: '/api/admin/feeds', headers: admin });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as Array<Record<string, any>>).find((feed) => feed.id === FEED)!;
};
const staleWarnings = (started: TestApp) => started.logs.filter((line) => line.includes('feed is stale')).length;

describe.each(await databaseKinds())('feed health on %s', (kind) => {
  let harness: Harness;
  let started: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    harness = await startHarness(kind);
    started = await startInstance(harness);
    app = started.app;
    // The poll made at start (of an empty feed): waited for, so the polls below are the tests' own.
    await servicesOf(app).workers.runNow(MONITOR);
  });
  afterAll(async () => {
    await started?.close();
    await Promise.all([harness?.feed.close(), harness?.push.close()]);
    await harness?.database.drop();
  });

  it('records a successful poll: when, the last success and the last change', async () => {
    harness.feed.setPowerOutages([outage]);
    await poll(app);
    expect(await feedHealth(app)).toMatchObject({
      id: FEED,
      displayName: 'Power outages',
      enabled: true,
      pollingIntervalSeconds: 3600,
      consecutiveFailures: 0,
      stale: false,
      lastError: null,
    });
    const health = await feedHealth(app);
    expect(health.lastSuccessAt).toBe(health.lastPollAt);
    expect(health.lastChangeAt).toBe(health.lastPollAt);
    // The scheduled feed is installed but not polled here.
    const listed = (await app.inject({ url: '/api/admin/feeds', headers: admin })).json() as Array<{ id: string; enabled: boolean }>;
    expect(listed.map((feed) => [feed.id, feed.enabled])).toContainEqual([FEED, true]);
  });

  it(`a feed answering 500 turns stale after ${STALE_AFTER} polls: one warning, one alert, whatever more polls fail`, async () => {
    harness.feed.fault('http500', 6);
    for (let i = 1; i < STALE_AFTER; i += 1) await poll(app);
    expect(await feedHealth(app)).toMatchObject({
      consecutiveFailures: STALE_AFTER - 1,
      stale: false,
      lastError: { kind: 'EndpointError', message: 'utility-power-outages: HTTP 500' },
    });
    expect(alerts(harness.push)).toEqual([]);
    await poll(app);
    expect(await feedHealth(app)).toMatchObject({ consecutiveFailures: STALE_AFTER, stale: true });
    expect(alerts(harness.push)).toEqual(['Feed stale: Power outages']);
    const [message] = harness.push.messages(ALERT_TOPIC);
    expect(message.message).toContain(`No poll of ${FEED} has succeeded for ${STALE_AFTER} polls in a row.`);
    expect(message.message).toContain('Last error: EndpointError: utility-power-outages: HTTP 500');
    expect(message.message).not.toContain(harness.feed.apiKey);
    for (let i = 0; i < 3; i += 1) await poll(app);
    expect(await feedHealth(app)).toMatchObject({ consecutiveFailures: STALE_AFTER + 3, stale: true });
    expect(alerts(harness.push)).toEqual(['Feed stale: Power outages']);
    expect(staleWarnings(started)).toBe(1);
    // Readiness is about the service, not about a feed.
    expect((await app.inject('/health/ready')).statusCode).toBe(200);
  });

  it('recovery publishes exactly one more, replacing the stale notice on a phone', async () => {
    await poll(app);
    const health = await feedHealth(app);
    expect(health).toMatchObject({ consecutiveFailures: 0, stale: false, lastError: { kind: 'EndpointError' } });
    expect(health.lastSuccessAt).toBe(health.lastPollAt);
    expect(alerts(harness.push)).toEqual(['Feed stale: Power outages', 'Feed recovered: Power outages']);
    const [stale, recovered] = harness.push.messages(ALERT_TOPIC);
    expect(recovered.sequence_id).toBe(stale.sequence_id);
    expect(recovered.message).toContain(`after ${STALE_AFTER + 3} failed polls`);
    for (let i = 0; i < 2; i += 1) await poll(app);
    expect(alerts(harness.push)).toHaveLength(2);
    expect(started.logs.filter((line) => line.includes('"msg":"feed recovered"'))).toHaveLength(1);
  });

  it('counts the polls and reads the last success from the database', async () => {
    const samples = parseMetrics((await app.inject('/metrics')).body);
    expect(sampleValue(samples, 'notification_feed_polls_total', { feed: FEED, outcome: 'failed' })).toBe(STALE_AFTER + 3);
    // The first poll at start (an empty feed, first seen) and the one that found the outage.
    expect(sampleValue(samples, 'notification_feed_polls_total', { feed: FEED, outcome: 'changed' })).toBe(2);
    expect(sampleValue(samples, 'notification_feed_polls_total', { feed: FEED, outcome: 'unchanged' })).toBe(3);
    const lastSuccess = Date.parse((await feedHealth(app)).lastSuccessAt) / 1000;
    expect(sampleValue(samples, 'notification_feed_last_success_timestamp_seconds', { feed: FEED })).toBeCloseTo(lastSuccess, 3);
    expect(sampleValue(samples, 'notification_events_total', { feed: 'core.feed-health', event_type: 'FeedStale' })).toBe(1);
    expect(sampleValue(samples, 'notification_events_total', { feed: 'core.feed-health', event_type: 'FeedRecovered' })).toBe(1);
  });

  it('logs a poll that found changes on one line: feed, events by type, matched, claimed', async () => {
    const line = started.logs.find((entry) => entry.includes('feed changes handed over'));
    expect(JSON.parse(line!)).toMatchObject({ level: 30, feed: FEED, events: { NewOutage: 1 }, MatchedSubscriptionCount: 1, ClaimedCount: 1 });
    expect(started.logs.some((entry) => entry.includes('DeliveredCount'))).toBe(false);
  });

  it('the alert subscription cannot be reached through the API, and core.feed-health is not in the catalog', async () => {
    const catalog = (await app.inject('/api/notification-feeds')).json() as Array<{ id: string }>;
    expect(catalog.map((feed) => feed.id)).not.toContain('core.feed-health');
    const response = await app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'x', feedId: 'core.feed-health', delivery: { provider: 'Push' } },
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('FeedHealth__AlertTopic', () => {
  it('must pass the push topic policy: a topic not on the allowlist stops the start, naming the key', async () => {
    const harness = await startHarness(await preferredKind());
    try {
      await expect(startInstance(harness, { Notifications__Push__AllowedTopics: '' })).rejects.toThrow(
        /FeedHealth__AlertTopic: Push topic "ops-feed-health" is not allowed by the topic policy/,
      );
    } finally {
      await Promise.all([harness.feed.close(), harness.push.close()]);
      await harness.database.drop();
    }
  });
});

describe.runIf(await postgresReachable())('feed health with two instances on one PostgreSQL database', () => {
  let harness: Harness;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    harness = await startHarness('postgres');
    [a, b] = [await startInstance(harness), await startInstance(harness)];
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await Promise.all([harness?.feed.close(), harness?.push.close()]);
    await harness?.database.drop();
  });

  it('polls taking turns count together: exactly one alert when stale, exactly one on recovery', async () => {
    const apps = [a.app, b.app];
    harness.feed.setPowerOutages([outage]);
    await poll(a.app, apps);
    harness.feed.fault('http500', 5);
    for (let i = 0; i < 5; i += 1) await poll(apps[i % 2], apps);
    expect(await feedHealth(b.app)).toMatchObject({ consecutiveFailures: 5, stale: true });
    expect(alerts(harness.push)).toEqual(['Feed stale: Power outages']);
    expect(staleWarnings(a) + staleWarnings(b)).toBe(1);
    await poll(b.app, apps);
    await poll(a.app, apps);
    expect(alerts(harness.push)).toEqual(['Feed stale: Power outages', 'Feed recovered: Power outages']);
  });

  it('polls recorded at the same moment on both instances still make one transition each way', async () => {
    const failed = (startedAt: Date) => ({
      pluginId: 'utility-power-outages',
      feedId: FEED,
      outcome: 'failed' as const,
      startedAt,
      durationMs: 1,
      error: { kind: 'EndpointError', message: 'utility-power-outages: HTTP 500' },
    });
    const base = Date.now();
    // Ten failures from each instance, concurrently: the health row is locked while each is decided.
    await Promise.all(Array.from({ length: 20 }, (_, i) => servicesOf((i % 2 === 0 ? a : b).app).recordPoll(failed(new Date(base + i)))));
    for (const app of [a.app, b.app]) await servicesOf(app).dispatcher.settle();
    expect(await feedHealth(a.app)).toMatchObject({ stale: true });
    const ok = { pluginId: 'utility-power-outages', feedId: FEED, outcome: 'unchanged' as const, startedAt: new Date(base + 100), durationMs: 1 };
    await Promise.all([servicesOf(a.app).recordPoll(ok), servicesOf(b.app).recordPoll({ ...ok, startedAt: new Date(base + 101) })]);
    for (const app of [a.app, b.app]) await servicesOf(app).dispatcher.settle();
    expect(alerts(harness.push)).toEqual([
      'Feed stale: Power outages',
      'Feed recovered: Power outages',
      'Feed stale: Power outages',
      'Feed recovered: Power outages',
    ]);
  });
});
