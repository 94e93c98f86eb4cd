import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, E2E_JWT_SECRET, realPluginsDir } from '../helpers/e2e-env.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const MONITOR = 'utility-power-outages.monitor';
const outage = (id: string, feeder: string, areas: string[], timeRestored: string | null = null) => ({
  id,
  feeder,
  areas,
  timeOff: '2026-11-22T08:15:00+05:30',
  timeRestored,
  cause: 'Fallen line',
  customersAffected: 1200,
});

// What every feed does (conditional polls, no repeat after a restart, feed faults, switched off) is in feed-contract.test.ts.
describe('power outages end to end: feed double → monitor → pipeline → push double', () => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let pluginsDir: string;
  let started: TestApp;
  let app: FastifyInstance;
  const topics: Record<string, string> = {};

  const start = async (extra: Record<string, string> = {}) => {
    started = await startTestApp({
      database,
      pluginsDir,
      env: e2eEnv(feed, push, { PowerOutages__Enabled: 'true', PowerOutages__PollingIntervalSeconds: '3600', PowerOutages__FeedTimeoutSeconds: '1', ...extra }),
    });
    app = started.app;
  };
  /** One poll now, then every delivery it caused. */
  const poll = async () => {
    await servicesOf(app).workers.runNow(MONITOR, { force: true });
    await servicesOf(app).dispatcher.settle();
  };
  const titles = (topic: string) => push.messages(topic).map((message) => message.title ?? '');
  const storedOutages = () => servicesOf(app).database.knex('power_outages').orderBy('id');
  const subscribe = async (name: string, filter: object) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: name, feedId: 'utility.power-outages', filter, delivery: { provider: 'Push' } },
    });
    expect(response.statusCode, response.body).toBe(201);
    topics[name] = response.json().delivery.destination;
  };

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
    pluginsDir = realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push']);
    await start();
    await subscribe('f12', { feeders: ['F12'] });
    await subscribe('galle', { locationKeywords: ['galle'] });
  });
  afterAll(async () => {
    await started?.close();
    await Promise.all([feed?.close(), push?.close()]);
    await database?.drop();
  });

  it('announces a new outage to matching subscribers and the system topic, once', async () => {
    feed.setPowerOutages([outage('PO-1', 'F12', ['Kandy', 'Peradeniya'])]);
    await poll();
    expect(titles('utility-power-outages')).toEqual(['Power outage: Kandy, Peradeniya']);
    expect(titles(topics.f12)).toEqual(['Power outage: Kandy, Peradeniya']);
    expect(titles(topics.galle)).toEqual([]);
    const [message] = push.messages(topics.f12);
    expect(message).toMatchObject({ priority: 4, tags: ['warning', 'electric_plug'] });
    expect(message.message).toContain('Feeder: F12');
    expect((await storedOutages())[0]).toMatchObject({ id: 'PO-1', feeder: 'F12', areas: ['Kandy', 'Peradeniya'], time_restored: null });
    expect((await storedOutages())[0].outage_notified_at).not.toBeNull();
  });

  it("announces the restoration with the outage's sequence id, so it replaces it on the phone", async () => {
    feed.setPowerOutages([
      outage('PO-1', 'F12', ['Kandy', 'Peradeniya'], '2026-11-22T10:00:00+05:30'),
      outage('PO-2', 'F7', ['Galle Fort'], '2026-11-22T09:00:00+05:30'),
    ]);
    await poll();
    expect(titles(topics.f12)).toEqual(['Power outage: Kandy, Peradeniya', 'Power restored: Kandy, Peradeniya']);
    const [first, second] = push.messages(topics.f12);
    expect(second.sequence_id).toBe(first.sequence_id);
    // First seen already restored: a RestoredAnnouncement, to the Galle subscriber and the system topic.
    expect(titles(topics.galle)).toEqual(['Power restored: Galle Fort']);
    expect(titles('utility-power-outages')).toHaveLength(3);
  });

  it('announcements need an admin token and reach the system topic and matching subscribers', async () => {
    const url = '/api/admin/announcements';
    const payload = { title: 'Storm warning', message: 'Expect outages tonight.', feeders: ['F12'] };
    expect((await app.inject({ method: 'POST', url, payload })).statusCode).toBe(401);
    const user = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'someone' })}` };
    expect((await app.inject({ method: 'POST', url, payload, headers: user })).statusCode).toBe(403);
    const admin = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' })}` };
    expect((await app.inject({ method: 'POST', url, payload: { title: 'x' }, headers: admin })).statusCode).toBe(400);
    const response = await app.inject({ method: 'POST', url, payload, headers: admin });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ matchedSubscriptionCount: 2, deliveredCount: 2, claimedCount: 2, wasSystemDelivery: true });
    expect(titles('utility-power-outages').at(-1)).toBe('Storm warning');
    expect(titles(topics.f12).at(-1)).toBe('Storm warning');
    expect(titles(topics.galle)).not.toContain('Storm warning');
  });
});
