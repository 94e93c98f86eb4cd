import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { databaseKinds, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, E2E_JWT_SECRET, realPluginsDir } from '../helpers/e2e-env.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const admin = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' })}` };
const user = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'someone' })}` };
const SUBSCRIBERS = 4;

interface Page {
  items: Array<{
    id: number;
    subscriptionId: string;
    feedId: string;
    eventType: string;
    status: string;
    attempts: number;
    lastError: string | null;
    provider: string;
  }>;
  nextAfter: string | null;
}

describe.each(await databaseKinds())('the admin view of deliveries on %s', (kind) => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let started: TestApp;
  let app: FastifyInstance;
  const topics: string[] = [];

  const list = async (query: string): Promise<Page> => {
    const response = await app.inject({ url: `/api/admin/deliveries${query}`, headers: admin });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const announce = async (title: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/admin/announcements',
      headers: admin,
      payload: { title, message: 'Expect outages tonight.' },
    });
    expect(response.statusCode, response.body).toBe(202);
    return response.json() as { deliveredCount: number };
  };

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
    started = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'delivery-push']),
      // One attempt: a 500 from the push server fails the delivery for good, for an operator to requeue.
      env: e2eEnv(feed, push, {
        NotificationPipeline__MaxDeliveryAttempts: '1',
        NotificationPipeline__SystemSubscriptions__PowerOutages__FeedId: '',
        NotificationPipeline__SystemSubscriptions__PowerOutages__PushTopic: '',
        NotificationPipeline__SystemSubscriptions__ScheduledOutages__FeedId: '',
        NotificationPipeline__SystemSubscriptions__ScheduledOutages__PushTopic: '',
      }),
    });
    app = started.app;
    for (let i = 0; i < SUBSCRIBERS; i += 1) {
      const created = await app.inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: { displayName: `s${i}`, feedId: 'utility.power-outages', delivery: { provider: 'Push' } },
      });
      topics.push(created.json().delivery.destination);
    }
  });
  afterAll(async () => {
    await started?.close();
    await Promise.all([feed?.close(), push?.close()]);
    await database?.drop();
  });

  it('is for admins only', async () => {
    expect((await app.inject('/api/admin/deliveries')).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/admin/deliveries', headers: user })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/api/admin/deliveries/requeue', headers: user, payload: {} })).statusCode).toBe(403);
  });

  it('lists deliveries newest first with their last error, by status and feed, a page at a time', async () => {
    expect((await announce('First')).deliveredCount).toBe(SUBSCRIBERS);
    push.failNext(3, { status: 500 });
    expect((await announce('Second')).deliveredCount).toBe(SUBSCRIBERS - 3);

    const all = await list('?limit=500');
    expect(all.items).toHaveLength(2 * SUBSCRIBERS);
    expect(all.items.map((item) => item.id)).toEqual([...all.items.map((item) => item.id)].sort((a, b) => b - a));
    expect(all.nextAfter).toBeNull();

    const failed = await list('?status=failed&feed=utility.power-outages');
    expect(failed.items).toHaveLength(3);
    for (const item of failed.items) {
      expect(item).toMatchObject({ status: 'failed', feedId: 'utility.power-outages', eventType: 'ManualAnnouncement', provider: 'Push', attempts: 1 });
      expect(item.lastError).toMatch(/gave up after 1 attempts/);
      expect(JSON.stringify(item)).not.toMatch(/alerts-/); // the subscriber's topic is their capability
    }
    expect((await list('?status=failed&feed=utility.scheduled-outages')).items).toEqual([]);

    const seen: number[] = [];
    let cursor = '';
    for (let page = 0; page < 10; page += 1) {
      const next = await list(`?limit=3${cursor}`);
      seen.push(...next.items.map((item) => item.id));
      if (next.nextAfter === null) break;
      cursor = `&after=${next.nextAfter}`;
    }
    expect(seen).toEqual(all.items.map((item) => item.id));
  });

  it('answers 400 naming the field for a bad status, limit or cursor', async () => {
    for (const [query, field] of [
      ['?status=lost', 'status'],
      ['?limit=0', 'limit'],
      ['?limit=5000', 'limit'],
      ['?after=-1', 'after'],
      ['?color=red', 'color'],
    ]) {
      const response = await app.inject({ url: `/api/admin/deliveries${query}`, headers: admin });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toContain(field);
    }
  });

  it('requeues failed push deliveries: they are tried again with a fresh count of attempts, once', async () => {
    const failed = await list('?status=failed');
    const [first, ...rest] = failed.items;
    const one = await app.inject({ method: 'POST', url: '/api/admin/deliveries/requeue', headers: admin, payload: { ids: [first.id] } });
    expect(one.json()).toEqual({ requeued: 1 });
    await servicesOf(app).dispatcher.settle();
    expect((await list('?status=failed')).items.map((item) => item.id)).toEqual(rest.map((item) => item.id));

    const others = await app.inject({ method: 'POST', url: '/api/admin/deliveries/requeue', headers: admin });
    expect(others.json()).toEqual({ requeued: 2 });
    await servicesOf(app).dispatcher.settle();
    expect((await list('?status=failed')).items).toEqual([]);
    const delivered = await list('?status=delivered');
    expect(delivered.items).toHaveLength(2 * SUBSCRIBERS);
    expect(delivered.items.find((item) => item.id === first.id)).toMatchObject({ attempts: 1, lastError: null });
    // Every subscriber has both messages, each once.
    for (const topic of topics) expect(push.messages(topic).map((message) => message.title)).toEqual(['First', 'Second']);
    expect((await app.inject({ method: 'POST', url: '/api/admin/deliveries/requeue', headers: admin, payload: {} })).json()).toEqual({ requeued: 0 });
  });

  it('leaves failed deliveries of a stopped subscription alone', async () => {
    push.failNext(1, { status: 500 });
    await announce('Third');
    const [failed] = (await list('?status=failed')).items;
    await servicesOf(app).database.knex('notification_subscriptions').where({ public_id: failed.subscriptionId }).update({ is_active: false });
    const response = await app.inject({ method: 'POST', url: '/api/admin/deliveries/requeue', headers: admin, payload: { ids: [failed.id] } });
    expect(response.json()).toEqual({ requeued: 0 });
  });
});
