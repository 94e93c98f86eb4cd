import { request } from 'undici';
import webpush from 'web-push';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationEvent } from '#plugin-api';
import { startPushServiceDouble, type PushServiceDouble } from '../../../demo/webpush-inbox/push-service.ts';
import { databaseKinds, provisionDatabase, type DatabaseKind, type ProvisionedDatabase } from '../../../test/helpers/databases.ts';
import { realPluginsDir } from '../../../test/helpers/e2e-env.ts';
import { servicesOf, startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

const VAPID = webpush.generateVAPIDKeys();
const PUBLIC_BASE_URL = 'https://alerts.example.org';

const event = (id: string, eventType = 'NewOutage'): NotificationEvent => ({
  feedId: 'utility.power-outages',
  eventType,
  sourceKey: id,
  itemKey: id,
  fields: { feeder: 'F12', areas: 'Kandy' },
  sourcePayload: {
    id,
    feeder: 'F12',
    areas: ['Kandy'],
    timeOff: '2026-11-22T08:15:00+05:30',
    timeRestored: eventType === 'NewOutage' ? null : '2026-11-22T09:00:00+05:30',
  },
});

describe('the push-service double', () => {
  // The web-push library's own request (its encryption and VAPID token), sent over plain http to the loopback double.
  const send = async (subscription: webpush.PushSubscription, payload: string, options: webpush.RequestOptions) => {
    const details = webpush.generateRequestDetails(subscription, payload, options);
    return (await request(details.endpoint, { method: 'POST', headers: details.headers as Record<string, string>, body: details.body })).statusCode;
  };

  it("decrypts and checks what the web-push library's own request carries", async () => {
    const service = await startPushServiceDouble();
    try {
      const subscription = service.subscribe('reference');
      expect(
        await send(subscription, '{"title":"hello"}', {
          vapidDetails: { subject: 'mailto:ops@example.org', ...VAPID },
          TTL: 60,
          urgency: 'high',
          topic: 'po-1',
        }),
      ).toBe(201);
      expect(service.to('reference').map((push) => [push.payload, push.ttl, push.urgency, push.topic, push.vapid.sub])).toEqual([
        ['{"title":"hello"}', '60', 'high', 'po-1', 'mailto:ops@example.org'],
      ]);
      // A token signed with another key than the one it names is refused.
      const other = webpush.generateVAPIDKeys();
      expect(
        await send(subscription, 'x', { vapidDetails: { subject: 'mailto:ops@example.org', publicKey: VAPID.publicKey, privateKey: other.privateKey } }),
      ).toBe(403);
      expect(service.refused).toEqual(['reference: bad signature']);
    } finally {
      await service.close();
    }
  });
});

describe.each(await databaseKinds())('delivery-webpush end to end on %s', (kind: DatabaseKind) => {
  let database: ProvisionedDatabase;
  let service: PushServiceDouble;
  let harness: TestApp;

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    service = await startPushServiceDouble();
    harness = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'delivery-webpush', 'delivery-push']),
      env: {
        PublicBaseUrl: PUBLIC_BASE_URL,
        WebPush__VapidPublicKey: VAPID.publicKey,
        WebPush__VapidPrivateKey: VAPID.privateKey,
        WebPush__Subject: 'mailto:ops@example.org',
        // The test's push service listens on loopback: listed, which also allows its http.
        WebPush__AllowedEndpointHosts: '127.0.0.1',
        WebPush__TtlSeconds: '3600',
        SubscriptionLimits__MaxPerIp: '1000',
        SubscriptionLimits__MaxPerIpPerDay: '1000',
      },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await service?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await knex()('notification_subscriptions').where({ provider: 'WebPush' }).delete();
  });

  const app = () => harness.app;
  const knex = () => servicesOf(app()).database.knex;
  const ledger = (sourceKey: string) => knex()('notification_delivery_ledger').where({ source_key: sourceKey }).orderBy('id');
  const create = (subscription: unknown) =>
    app().inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'browser', feedId: 'utility.power-outages', delivery: { provider: 'WebPush', subscription } },
    });
  const subscribed = async (name: string) => {
    const browser = service.subscribe(name);
    const response = await create(browser);
    expect(response.statusCode).toBe(201);
    return response.json() as { publicId: string; isActive: boolean; delivery: { destination: string } };
  };
  const deliver = (id: string, eventType?: string) => servicesOf(app()).pipeline.processNotificationEvents([event(id, eventType)], { awaitDelivery: true });
  const retryNow = async () => {
    await knex()('notification_delivery_ledger').whereIn('status', ['retrying', 'pending']).update({ next_attempt_at: knex().fn.now() });
    await servicesOf(app()).dispatcher.drain();
  };

  it('answers its VAPID public key, and serves the service worker with a strict CSP', async () => {
    expect((await app().inject({ method: 'GET', url: '/api/web-push/public-key' })).json()).toEqual({ publicKey: VAPID.publicKey });
    const worker = await app().inject({ method: 'GET', url: '/sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toMatch(/^text\/javascript/);
    expect(worker.headers['content-security-policy']).toBe("default-src 'none'");
    expect(worker.body).toContain("addEventListener('push'");
  });

  it("takes the browser's PushSubscription, active at once, its endpoint the destination; each alert decrypts to { title, body, tag, priority, url } with TTL, Urgency and Topic", async () => {
    const created = await subscribed('b1');
    expect(created.isActive).toBe(true);
    expect(created.delivery.destination).toBe(`${service.url}/push/b1`);
    await deliver('PO-P1');
    const [push] = service.to('b1');
    expect(JSON.parse(push!.payload)).toMatchObject({
      title: expect.stringMatching(/^Power outage: Kandy/),
      tag: expect.stringMatching(/^po-/),
      priority: 'High',
      url: `${PUBLIC_BASE_URL}/manage/${created.publicId}`,
    });
    expect(push!.ttl).toBe('3600');
    expect(push!.urgency).toBe('high');
    expect(push!.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(push!.vapid).toMatchObject({ sub: 'mailto:ops@example.org', aud: service.url, k: VAPID.publicKey });

    // The restoration carries the outage's tag and topic: it replaces the notice, in the browser and at the push service.
    await deliver('PO-P1', 'Restoration');
    const [, restored] = service.to('b1');
    expect(JSON.parse(restored!.payload).tag).toBe(JSON.parse(push!.payload).tag);
    expect(restored!.topic).toBe(push!.topic);
    expect(restored!.urgency).toBe('normal');
    expect(service.refused).toEqual([]);
  });

  it('retries 500, waits out a 429 without counting it, and delivers once; 410 and 404 stop the subscription; another 4xx fails that push', async () => {
    await subscribed('b2');
    service.script('b2', { status: 500 }, { status: 429, retryAfter: 1 });
    await deliver('PO-P2');
    expect((await ledger('PO-P2'))[0]).toMatchObject({ status: 'retrying', attempts: 1 });
    await retryNow();
    // The push service said to slow down: waiting again, the attempt not counted.
    expect((await ledger('PO-P2'))[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: 'push service 429' });
    await retryNow();
    expect((await ledger('PO-P2')).map((row) => row.status)).toEqual(['delivered']);
    expect(service.to('b2')).toHaveLength(1);

    for (const status of [410, 404]) {
      const gone = await subscribed(`gone-${status}`);
      service.script(`gone-${status}`, { status });
      await deliver(`PO-G${status}`);
      expect((await ledger(`PO-G${status}`)).map((row) => [row.status, row.outcome, row.outcome_code])).toContainEqual(['failed', 'gone', String(status)]);
      expect(await knex()('notification_subscriptions').where({ public_id: gone.publicId }).first('is_active')).toEqual({ is_active: false });
    }
    const bad = await subscribed('b3');
    service.script('b3', { status: 400 });
    await deliver('PO-P3');
    expect((await ledger('PO-P3')).filter((row) => row.status === 'failed').map((row) => row.last_error)).toContain('push service 400');
    expect(await knex()('notification_subscriptions').where({ public_id: bad.publicId }).first('is_active')).toEqual({ is_active: true });
  });

  it("refuses a browser's subscription given to another provider (Push takes none), naming it, and stores nothing", async () => {
    const before = await knex()('notification_subscriptions').count({ n: '*' }).first();
    const response = await app().inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'phone', feedId: 'utility.power-outages', delivery: { provider: 'Push', subscription: service.subscribe('b9') } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('body/delivery/subscription is not taken by provider Push');
    expect(await knex()('notification_subscriptions').count({ n: '*' }).first()).toEqual(before);
  });

  it('refuses endpoints off the allowed push services, and keys that are not a browser’s, with a 400 naming the field', async () => {
    const browser = service.subscribe('b4');
    const cases: Array<[unknown, RegExp]> = [
      [{ ...browser, endpoint: 'https://push.example.org/x' }, /^body\/delivery\/subscription\/endpoint: push\.example\.org is not an allowed host/],
      [{ ...browser, endpoint: 'https://169.254.169.254/latest' }, /^body\/delivery\/subscription\/endpoint/],
      [{ ...browser, endpoint: 'http://127.0.0.2/push/x' }, /^body\/delivery\/subscription\/endpoint/],
      [{ ...browser, keys: { ...browser.keys, p256dh: 'AAAA' } }, /^body\/delivery\/subscription\/keys\/p256dh/],
      [{ ...browser, keys: { ...browser.keys, auth: Buffer.alloc(20).toString('base64url') } }, /^body\/delivery\/subscription\/keys\/auth/],
      // 65 bytes starting 0x04, but not a point of P-256: nothing could be encrypted for it.
      [
        { ...browser, keys: { ...browser.keys, p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url') } },
        /^body\/delivery\/subscription\/keys\/p256dh/,
      ],
      [undefined, /^body\/delivery\/subscription is required/],
    ];
    for (const [subscription, message] of cases) {
      const response = await create(subscription);
      expect(response.statusCode, JSON.stringify(subscription)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect(Number((await knex()('notification_subscriptions').where({ provider: 'WebPush' }).count({ n: '*' }))[0].n)).toBe(0);
    expect(harness.logs.join('')).not.toContain(VAPID.privateKey);
  });
});
