import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PUBLISHER_USER, startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startSmtpDouble, type SmtpDouble } from '../doubles/smtp-double.ts';
import { linkIn, OUTBOX_WORKER, PUBLIC_BASE_URL } from '../doubles/smtp-test-app.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { databaseKinds, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, E2E_JWT_SECRET, realPluginsDir } from '../helpers/e2e-env.ts';
import { parseMetrics, sampleValue, type Sample } from '../helpers/metrics-text.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp, EVERY_INSTALLED_PLUGIN } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const admin = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' })}` };
// A system topic the push server refuses (403: not in its ACL): a permanent failure of every delivery to it.
const LOCKED_TOPIC = 'locked-topic';

describe.each(await databaseKinds())('metrics and request logs on %s', (kind) => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let smtp: SmtpDouble;
  let started: TestApp;
  let app: FastifyInstance;

  const scrape = async (): Promise<Sample[]> => {
    const response = await app.inject('/metrics');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseMetrics(response.body);
  };
  const metric = async (name: string, labels: Record<string, string> = {}) => sampleValue(await scrape(), name, labels);
  const announce = async (title: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/admin/announcements',
      headers: admin,
      payload: { title, message: 'Expect outages tonight.' },
    });
    expect(response.statusCode, response.body).toBe(202);
  };
  const drainOutbox = () => servicesOf(app).workers.runNow(OUTBOX_WORKER, { force: true });

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    [feed, smtp] = await Promise.all([startUtilityFeedDouble(), startSmtpDouble()]);
    push = await startPushServerDouble({
      acl: [
        { user: DEFAULT_PUBLISHER_USER, topic: 'utility-*', permission: 'read-write' },
        { user: DEFAULT_PUBLISHER_USER, topic: 'alerts-*', permission: 'read-write' },
        { user: '*', topic: '*', permission: 'read-only' },
      ],
    });
    started = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'delivery-push', 'delivery-email']),
      env: e2eEnv(feed, push, {
        ...smtp.env,
        PublicBaseUrl: PUBLIC_BASE_URL,
        EmailOutbox__IntervalSeconds: '3600',
        NotificationPipeline__SystemSubscriptions__ScheduledOutages__FeedId: '',
        NotificationPipeline__SystemSubscriptions__ScheduledOutages__PushTopic: '',
        NotificationPipeline__SystemSubscriptions__Locked__FeedId: 'utility.power-outages',
        NotificationPipeline__SystemSubscriptions__Locked__PushTopic: LOCKED_TOPIC,
        Notifications__Push__AllowedTopics: LOCKED_TOPIC,
        Metrics__DatabaseCacheSeconds: '0',
      }),
    });
    app = started.app;
  });
  afterAll(async () => {
    await started?.close();
    await Promise.all([feed?.close(), push?.close(), smtp?.close()]);
    await database?.drop();
  });

  it('has the process defaults, and HTTP durations by route pattern (never by id)', async () => {
    for (let i = 0; i < 2; i += 1) expect((await app.inject('/api/notification-feeds')).statusCode).toBe(200);
    expect((await app.inject('/api/notification-subscriptions/someone-else')).statusCode).toBe(404);
    const samples = await scrape();
    // Present (a new registry's CPU counter may still read 0: getrusage moves in clock ticks).
    expect(sampleValue(samples, 'process_cpu_user_seconds_total')).toBeTypeOf('number');
    expect(sampleValue(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(sampleValue(samples, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/notification-feeds', status_code: '200' })).toBe(2);
    expect(
      sampleValue(samples, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/notification-subscriptions/:publicId', status_code: '404' }),
    ).toBe(1);
    expect(samples.some((sample) => sample.labels.route?.includes('someone-else'))).toBe(false);
  });

  it('counts events, and delivery outcomes where the ledger records them, with the latency from event to delivery', async () => {
    const pushed = await app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'p', feedId: 'utility.power-outages', delivery: { provider: 'Push' } },
    });
    expect(pushed.statusCode).toBe(201);
    const destination = 'metrics-reader@example.org';
    const mailed = await app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'e', feedId: 'utility.power-outages', delivery: { provider: 'Email', destination } },
    });
    expect(mailed.statusCode).toBe(201);
    await drainOutbox();
    const verify = await app.inject(linkIn(smtp.messages.find((message) => message.envelopeTo.includes(destination))?.text, 'verify'));
    expect(verify.statusCode).toBe(200);

    await announce('Storm warning');
    await drainOutbox();
    const samples = await scrape();
    expect(sampleValue(samples, 'notification_events_total', { feed: 'utility.power-outages', event_type: 'ManualAnnouncement' })).toBe(1);
    // The system topic and the subscriber's topic; the locked topic is refused for good (403).
    expect(sampleValue(samples, 'notification_deliveries_total', { provider: 'Push', outcome: 'delivered' })).toBe(2);
    expect(sampleValue(samples, 'notification_deliveries_total', { provider: 'Push', outcome: 'failed' })).toBe(1);
    // The email is counted when the outbox has sent it (not when the dispatcher queued it).
    expect(sampleValue(samples, 'notification_deliveries_total', { provider: 'Email', outcome: 'delivered' })).toBe(1);
    await expect.poll(() => metric('notification_delivery_latency_seconds_count')).toBe(3);
    expect(await metric('notification_delivery_latency_seconds_sum')).toBeGreaterThanOrEqual(0);
    expect(await metric('notification_delivery_latency_seconds_bucket', { le: '+Inf' })).toBe(3);
  });

  it('reads the delivery backlog and the outbox states from the database', async () => {
    let samples = await scrape();
    expect(sampleValue(samples, 'notification_delivery_backlog', { provider: 'Push' })).toBe(0);
    expect(sampleValue(samples, 'notification_delivery_backlog', { provider: 'Email' })).toBe(0);
    // The verification email and the announcement.
    expect(sampleValue(samples, 'notification_email_outbox_items', { state: 'sent' })).toBe(2);
    expect(sampleValue(samples, 'notification_email_outbox_items', { state: 'pending' })).toBe(0);

    // ntfy's daily quota: retried at the next UTC midnight, so no sweep retries them while the test reads the backlog.
    push.failNext(3, { status: 429, code: 42908 });
    // A relay that refuses for now (452): the email waits in the outbox for its retry, its ledger row queued.
    smtp.failNext({ kind: 'reject', code: 452 }, 1);
    await announce('Second warning');
    await expect.poll(() => metric('notification_email_outbox_items', { state: 'failed' })).toBe(1);
    samples = await scrape();
    expect(sampleValue(samples, 'notification_deliveries_total', { provider: 'Push', outcome: 'retrying' })).toBe(3);
    expect(sampleValue(samples, 'notification_delivery_backlog', { provider: 'Push' })).toBe(3);
    expect(sampleValue(samples, 'notification_delivery_backlog', { provider: 'Email' })).toBe(1);
    expect(sampleValue(samples, 'notification_email_outbox_items', { state: 'sent' })).toBe(2);
  });

  it('logs one line per request when it is answered, health probes only at debug', async () => {
    const before = started.logs.length;
    await app.inject('/api/notification-feeds');
    await app.inject('/health');
    await app.inject('/metrics');
    // Request lines only: a background worker may log meanwhile.
    const lines = started.logs
      .slice(before)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => 'url' in line);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      method: 'GET',
      url: '/api/notification-feeds',
      statusCode: 200,
      msg: expect.stringMatching(/^GET \/api\/notification-feeds 200 \d+ ms$/),
    });
    expect(started.logs.some((line) => line.includes('incoming request') || line.includes('request completed'))).toBe(false);
  });

  it('logs one line per dispatch batch of each lane: provider, delivered, retrying and failed counts, duration', async () => {
    const batches = started.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => String(line.queue).startsWith('core.delivery.'));
    // The announcements' batches, one per lane: the push deliveries, and the email handed to the outbox (queued).
    expect(batches).toContainEqual(
      expect.objectContaining({
        level: 40,
        queue: 'core.delivery.push',
        provider: 'Push',
        delivered: 2,
        failed: 1,
        retrying: 0,
        durationMs: expect.any(Number),
      }),
    );
    expect(batches).toContainEqual(expect.objectContaining({ level: 30, queue: 'core.delivery.push', provider: 'Push', delivered: 0, failed: 0, retrying: 3 }));
    expect(batches).toContainEqual(expect.objectContaining({ level: 30, queue: 'core.delivery.email', provider: 'Email', queued: 1, failed: 0 }));
  });
});

describe('Metrics__Enabled=false', () => {
  it('serves no /metrics and lists none in the API document', async () => {
    const database = await provisionDatabase((await databaseKinds())[0]);
    const started = await startTestApp({ pluginsDir: EVERY_INSTALLED_PLUGIN, database, workers: false, env: { Metrics__Enabled: 'false' } });
    try {
      expect((await started.app.inject('/metrics')).statusCode).toBe(404);
      expect(Object.keys((await started.app.inject('/docs/json')).json().paths)).not.toContain('/metrics');
    } finally {
      await started.close();
      await database.drop();
    }
  });
});
