import { afterEach, describe, expect, it } from 'vitest';
import { startTwilioGateway, type TwilioGateway } from '../../../demo/sms-gateway/twilio-gateway.ts';
import type { NotificationEvent } from '#plugin-api';
import { DEFAULT_PUBLISHER_TOKEN, startPushServerDouble, type PushServerDouble } from '../../../test/doubles/push-server-double.ts';
import { databaseKinds, postgresReachable, provisionDatabase, type DatabaseKind, type ProvisionedDatabase } from '../../../test/helpers/databases.ts';
import { E2E_JWT_SECRET, realPluginsDir } from '../../../test/helpers/e2e-env.ts';
import { jwtFor } from '../../../test/helpers/pipeline-plugins.ts';
import { servicesOf, startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

const POWER = 'utility.power-outages';
const item = (id: string, restored = false) => ({
  id,
  feeder: 'F1',
  areas: ['Kandy'],
  timeOff: '2026-11-28T08:15:00+05:30',
  timeRestored: restored ? '2026-11-28T09:40:00+05:30' : null,
  cause: null,
});
const event = (id: string, eventType: 'NewOutage' | 'Restoration'): NotificationEvent => ({
  feedId: POWER,
  eventType,
  sourceKey: eventType === 'NewOutage' ? id : `${id}:restored`,
  itemKey: id,
  fields: { feeder: 'F1', areas: 'Kandy' },
  sourcePayload: item(id, eventType === 'Restoration'),
});

/**
 * Delivery lanes (each provider apart, at its own rate and pause, urgent
 * first, latest state only), end to end: the real service on a real
 * database, a push server double and a Twilio-shaped gateway double over
 * real sockets. The gateway counts what it sees: its busiest second, its
 * 429s.
 */
describe.each(await databaseKinds())('delivery lanes on %s', (kind: DatabaseKind) => {
  const open: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of open.reverse()) await close().catch(() => undefined);
    open.length = 0;
  });

  async function scene(env: Record<string, string> = {}, options: { instances?: number } = {}) {
    const database: ProvisionedDatabase = await provisionDatabase(kind);
    open.push(() => database.drop());
    const gateway: TwilioGateway = await startTwilioGateway({
      accountSid: 'AClanes',
      authToken: 'lanes-token-0123456789',
      number: '+15005550006',
      publicBaseUrl: 'https://alerts.example.org',
    });
    open.push(() => gateway.close());
    const push: PushServerDouble = await startPushServerDouble();
    open.push(() => push.close());
    const pluginsDir = realPluginsDir(['utility-power-outages', 'delivery-sms', 'delivery-push']);
    const apps: TestApp[] = [];
    for (let i = 0; i < (options.instances ?? 1); i++) {
      const app = await startTestApp({
        database,
        pluginsDir,
        env: {
          PowerOutages__Enabled: 'false',
          PublicBaseUrl: 'https://alerts.example.org',
          Notifications__Push__BaseUrl: push.baseUrl,
          Notifications__Push__PublishToken: DEFAULT_PUBLISHER_TOKEN,
          Sms__TimeoutSeconds: '3',
          Jwt__Secret: E2E_JWT_SECRET,
          ...gateway.env,
          ...env,
        },
      });
      open.push(() => app.close());
      apps.push(app);
    }
    const knex = servicesOf(apps[0]!.app).database.knex;
    const subscribe = async (provider: 'Push' | 'Sms', count: number) =>
      knex.raw(
        `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
         SELECT ? || g, 'lane ' || g, ?, '{}', ?, CASE WHEN ? = 'Sms' THEN '+9477' || lpad(g::text, 7, '0') ELSE 'alerts-lane-' || g END, 'Anonymous', true
           FROM generate_series(1, ?) g`,
        [`${provider}-`, POWER, provider, provider, count],
      );
    const handOver = (...events: NotificationEvent[]) => servicesOf(apps[0]!.app).pipeline.processNotificationEvents(events);
    const ledger = () => knex('notification_delivery_ledger').select('provider', 'status', 'attempts', 'event_type');
    const textsOf = (key: string) => gateway.texts.filter((text) => text.body.includes(key));
    return { apps, app: apps[0]!, gateway, push, knex, subscribe, handOver, ledger, textsOf };
  }

  it('a stalled text gateway holds up only its own lane: every push message arrives while no text has, and the gateway is sent no more than it takes at once', async () => {
    const { gateway, push, subscribe, handOver, knex } = await scene();
    await subscribe('Push', 300);
    await subscribe('Sms', 200);
    gateway.setLatency(60_000);
    await handOver(event('PO-STALL', 'NewOutage'));
    await expect.poll(() => push.allMessages().length, { timeout: 20_000 }).toBe(300);
    expect(gateway.texts).toHaveLength(0);
    // Sms__Connections (8) requests at once: the rest of the lane waits in the ledger, not in the gateway's queue.
    expect(gateway.requests).toBeLessThanOrEqual(8);
    expect(
      Number((await knex('notification_delivery_ledger').where({ provider: 'Sms' }).whereIn('status', ['pending', 'delivering']).count({ n: '*' }))[0]!.n),
    ).toBe(200);
  });

  it('a 429 with Retry-After pauses the lane on the spot: no storm during the pause, nothing failed, even with one attempt allowed', async () => {
    const { app, gateway, subscribe, handOver, ledger } = await scene({ NotificationPipeline__MaxDeliveryAttempts: '1' });
    await subscribe('Sms', 30);
    gateway.refuseFor(1500, 2);
    await handOver(event('PO-PAUSE', 'NewOutage'));
    await expect.poll(() => gateway.throttled, { timeout: 10_000 }).toBeGreaterThan(0);
    // The operator sees the pause (recorded once the service has read the 429: poll for it).
    const smsLane = async () =>
      (
        (
          await app.app.inject({
            method: 'GET',
            url: '/api/admin/delivery-lanes',
            headers: { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' })}` },
          })
        ).json() as Array<{ provider: string }>
      ).find((lane) => lane.provider === 'Sms');
    await expect.poll(smsLane, { timeout: 5_000, interval: 50 }).toMatchObject({ provider: 'Sms', ratePerSecond: null, pausedUntil: expect.any(String) });
    await expect.poll(() => gateway.texts.length, { timeout: 20_000 }).toBe(30);
    // Only what was on the wire at the first 429 met the refusal (the window: Sms__Connections, 8); nothing was sent during the pause.
    expect(gateway.throttled).toBeLessThanOrEqual(8);
    await expect.poll(async () => (await ledger()).map((row) => row.status)).toEqual(Array(30).fill('delivered'));
    const rows = await ledger();
    // A 429 is no attempt: the only one counted is the one that got through.
    expect(Math.max(...rows.map((row) => row.attempts))).toBe(1);
  });

  it('urgent first: a new outage overtakes the waiting backlog of restorations in a lane with a rate', async () => {
    const { gateway, subscribe, handOver } = await scene({ NotificationPipeline__Rates__Sms: '10' });
    await subscribe('Sms', 60);
    await handOver(event('PO-OLD', 'Restoration'));
    await expect.poll(() => gateway.texts.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(10);
    await handOver(event('PO-URGENT', 'NewOutage'));
    // Counted from when the new outage is claimed (the hand-over has returned): what went while the hand-over itself ran
    // (longer on a loaded machine) was sent before there was anything urgent to send.
    const claimed = gateway.texts.length;
    await expect.poll(() => gateway.texts.filter((text) => text.body.includes('Power outage')).length, { timeout: 30_000 }).toBe(60);
    const afterClaim = gateway.texts.slice(claimed);
    const lastUrgent = afterClaim.findLastIndex((text) => text.body.includes('Power outage'));
    const restorationsAhead = afterClaim.slice(0, lastUrgent).filter((text) => text.body.includes('Power restored')).length;
    // Only what the lane had leased already (two batches of one second each at 10 a second) goes before it; first in first out would send all 50.
    expect(restorationsAhead).toBeLessThanOrEqual(25);
    await expect.poll(() => gateway.texts.length, { timeout: 30_000 }).toBe(120);
  });

  it('latest state only: a restoration claimed while the outage texts still wait replaces them: one text each, saying when the outage began', async () => {
    const { gateway, subscribe, handOver, ledger } = await scene();
    await subscribe('Sms', 20);
    gateway.refuseFor(4000, 6);
    await handOver(event('PO-SUP', 'NewOutage'));
    // The lane paused at the first 429: every outage text waits (the refused ones too, their attempt not counted).
    await expect.poll(async () => (await ledger()).map((row) => row.status), { timeout: 10_000 }).toEqual(Array(20).fill('pending'));
    await handOver(event('PO-SUP', 'Restoration'));
    await expect.poll(() => gateway.texts.length, { timeout: 20_000 }).toBe(20);
    expect(new Set(gateway.texts.map((text) => text.to)).size).toBe(20);
    for (const text of gateway.texts) {
      expect(text.body).toContain('Power restored');
      expect(text.body).toContain('We had not told you of this outage yet');
    }
    await expect
      .poll(async () => (await ledger()).filter((row) => row.event_type === 'Restoration').map((row) => row.status))
      .toEqual(Array(20).fill('delivered'));
    expect((await ledger()).filter((row) => row.event_type === 'NewOutage').map((row) => row.status)).toEqual(Array(20).fill('superseded'));
  });

  it('the preview says how long each lane will take, and the lane takes about that long', async () => {
    const { app, gateway, subscribe } = await scene({ NotificationPipeline__Rates__Sms: '5' });
    await subscribe('Sms', 20);
    await subscribe('Push', 10);
    const signIn = await app.app.inject({
      method: 'POST',
      url: '/console/api/session',
      payload: { token: jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' }) },
    });
    const cookie = `np_console=${encodeURIComponent(signIn.cookies.find((c) => c.name === 'np_console')!.value)}`;
    const csrf = (await app.app.inject({ method: 'GET', url: '/console/api/me', headers: { cookie } })).json().csrfToken as string;
    const announcement = { feedId: POWER, title: 'Storm warning', message: 'Expect outages tonight.' };
    const preview = await app.app.inject({
      method: 'POST',
      url: '/console/api/announcements/preview',
      headers: { cookie, 'x-csrf-token': csrf },
      payload: announcement,
    });
    expect(preview.statusCode).toBe(200);
    // 20 texts at 5 a second; push, with no rate and nothing sent lately, has no estimate yet.
    expect(preview.json()).toMatchObject({ subscriptions: 30, byProvider: { Push: 10, Sms: 20 }, estimatedSeconds: { Sms: 4, Push: null } });
    const started = Date.now();
    const sent = await app.app.inject({
      method: 'POST',
      url: '/console/api/announcements',
      headers: { cookie, 'x-csrf-token': csrf },
      payload: { ...announcement, confirm: true },
    });
    expect(sent.statusCode).toBe(202);
    expect(gateway.texts).toHaveLength(20);
    const measured = (Math.max(...gateway.arrivals) - started) / 1000;
    // The last of 20 slots 0.2 s apart leaves at 3.8 s; a loaded machine only makes it later.
    expect(measured).toBeGreaterThanOrEqual(3.5);
    expect(measured).toBeLessThan(4 + 5);
    // At 5 a second; a send leaves its slot late under load, never early, so a late one or two may share a second
    // with those on time (7 seen once, on a run beside browser tests): more would be the lane not keeping the rate.
    expect(gateway.busiestSecond()).toBeLessThanOrEqual(7);
  });
});

describe.runIf(await postgresReachable())("a lane's rate holds across instances", () => {
  it('two instances sending one lane keep together to its rate, as the gateway sees it, and send each text once', async () => {
    const database = await provisionDatabase('postgres');
    const gateway = await startTwilioGateway({
      accountSid: 'ACrate',
      authToken: 'rate-token-0123456789',
      number: '+15005550006',
      publicBaseUrl: 'https://alerts.example.org',
    });
    const pluginsDir = realPluginsDir(['utility-power-outages', 'delivery-sms']);
    const env = { PowerOutages__Enabled: 'false', PublicBaseUrl: 'https://alerts.example.org', NotificationPipeline__Rates__Sms: '10', ...gateway.env };
    const apps = [await startTestApp({ database, pluginsDir, env }), await startTestApp({ database, pluginsDir, env })];
    try {
      const knex = servicesOf(apps[0]!.app).database.knex;
      await knex.raw(
        `INSERT INTO notification_subscriptions (public_id, display_name, feed_id, filter_json, provider, destination, scope, is_active)
         SELECT 'rate-' || g, 'r', ?, '{}', 'Sms', '+9477' || lpad(g::text, 7, '0'), 'Anonymous', true FROM generate_series(1, 60) g`,
        [POWER],
      );
      await servicesOf(apps[0]!.app).pipeline.processNotificationEvents([event('PO-RATE', 'NewOutage')]);
      // The second instance is told too (as its LISTEN would): an instance leases at most two seconds' worth, so the other's share waits for it.
      servicesOf(apps[1]!.app).lanes.wake();
      await expect.poll(() => gateway.texts.length, { timeout: 30_000 }).toBe(60);
      expect(new Set(gateway.texts.map((text) => text.to)).size).toBe(60);
      const span = (Math.max(...gateway.arrivals) - Math.min(...gateway.arrivals)) / 1000;
      console.log(`two instances at 10 a second: 60 texts over ${span.toFixed(2)} s, busiest second ${gateway.busiestSecond()}`);
      // The peer never sees more than the rate in any second: 60 slots 0.1 s apart span 5.9 s, and a closed second holds 11 of
      // them. A send may leave its slot late (a loaded machine's event loop), never early, so one late send can fall in with the
      // next slot's: 12 at most (this test once saw 12 on a loaded machine), while the span keeps the pace to the rate.
      expect(gateway.busiestSecond()).toBeLessThanOrEqual(12);
      expect(span).toBeGreaterThanOrEqual(5.8);
      // Both instances sent part of it.
      for (const app of apps) expect(app.logs.some((line) => line.includes('"queue":"core.delivery.sms"') && line.includes('queue batch settled'))).toBe(true);
    } finally {
      for (const app of apps) await app.close();
      await gateway.close();
      await database.drop();
    }
  });
});
