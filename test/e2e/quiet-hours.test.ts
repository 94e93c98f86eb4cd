import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../core/app.ts';
import { CATCH_UP_WORKER } from '../../core/pipeline/quiet-hours/catch-up-release.ts';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const MONITOR = 'utility-power-outages.monitor';
const SYSTEM = 'utility-power-outages';
const at = (iso: string) => new Date(iso);
const outage = (id: string, area: string, timeOff: string, patch: Record<string, unknown> = {}) => ({
  id,
  feeder: 'F12',
  areas: [area],
  timeOff,
  timeRestored: null,
  cause: 'Fallen line',
  customersAffected: 1200,
  ...patch,
});

/**
 * Quiet hours through the HTTP API, the real feed monitor and dispatcher,
 * a feed double and a push-server double, with a clock the test sets (the
 * windows are judged by it). The system topic has no quiet hours: it shows
 * what a subscriber without them gets at once.
 */
describe('quiet hours end to end: urgent alerts at once, the rest in one catch-up when the window ends', () => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let started: TestApp;
  let second: TestApp | undefined;
  let app: FastifyInstance;
  let clock = at('2026-11-26T16:20:00Z'); // 21:50 in Colombo
  let outages: ReturnType<typeof outage>[] = [];
  const env = () =>
    e2eEnv(
      feed,
      push,
      {
        PowerOutages__Enabled: 'true',
        PowerOutages__PollingIntervalSeconds: '3600',
        PowerOutages__TimeZone: 'Asia/Colombo',
        NotificationPipeline__CooldownSeconds: '1',
      },
      () => clock,
    );
  const pluginsDir = () => realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push']);

  const knex = () => servicesOf(app).database.knex;
  const setOutages = (list: ReturnType<typeof outage>[]) => {
    outages = list;
    feed.setPowerOutages(outages);
  };
  const poll = async () => {
    await servicesOf(app).workers.runNow(MONITOR, { force: true });
    await servicesOf(app).dispatcher.settle();
  };
  const release = async (instance: FastifyInstance = app) => {
    await servicesOf(instance).workers.runNow(CATCH_UP_WORKER);
    await servicesOf(instance).dispatcher.settle();
  };
  const subscribe = async (displayName: string, area: string, preferences: object) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName, feedId: 'utility.power-outages', filter: { locationKeywords: [area] }, preferences, delivery: { provider: 'Push' } },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { publicId: string; delivery: { destination: string }; preferences: object };
  };
  const titles = (topic: string) => push.messages(topic).map((message) => message.title);
  const ledgerOf = async (publicId: string) =>
    knex()('notification_delivery_ledger as l')
      .join('notification_subscriptions as s', 's.id', 'l.subscription_id')
      .where('s.public_id', publicId)
      .orderBy('l.id')
      .select('l.id', 'l.source_key', 'l.event_type', 'l.status', 'l.merged_into');

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
    started = await startTestApp({ database, pluginsDir: pluginsDir(), now: () => clock, env: env() });
    app = started.app;
    await servicesOf(app).workers.runNow(MONITOR);
  });
  afterAll(async () => {
    await second?.close();
    await started?.close();
    await Promise.all([feed?.close(), push?.close()]);
    await database?.drop();
  });

  it("a wrapping 22:00–06:30 window in the feed's zone: three changes to one outage become one line; a new outage inside it comes at once", async () => {
    const kandy = await subscribe('Kandy nights', 'Kandy', { quietHours: { start: '22:00', end: '06:30' } });
    const topic = kandy.delivery.destination;
    expect(kandy.preferences).toEqual({ quietHours: { start: '22:00', end: '06:30' } });

    // 21:50, before the window: the outage comes at once.
    setOutages([outage('PO-Q1', 'Kandy', '2026-11-26T21:45:00+05:30', { estimatedRestoration: '2026-11-26T23:00:00+05:30' })]);
    await poll();
    expect(titles(topic)).toEqual(['Power outage: Kandy']);

    // 22:30 and 01:10: two new estimates, held (the system topic gets them at once).
    clock = at('2026-11-26T17:00:00Z');
    setOutages([outage('PO-Q1', 'Kandy', '2026-11-26T21:45:00+05:30', { estimatedRestoration: '2026-11-27T01:00:00+05:30' })]);
    await poll();
    clock = at('2026-11-26T19:40:00Z');
    setOutages([outage('PO-Q1', 'Kandy', '2026-11-26T21:45:00+05:30', { estimatedRestoration: '2026-11-27T04:00:00+05:30' })]);
    await poll();
    // 02:00: an urgent type (NewOutage) inside the window comes at once.
    clock = at('2026-11-26T20:30:00Z');
    setOutages([...outages, outage('PO-Q2', 'Kandy', '2026-11-27T01:55:00+05:30')]);
    await poll();
    expect(titles(topic)).toEqual(['Power outage: Kandy', 'Power outage: Kandy']);
    // 03:40: power back on PO-Q1, held too.
    clock = at('2026-11-26T22:10:00Z');
    setOutages([outage('PO-Q1', 'Kandy', '2026-11-26T21:45:00+05:30', { timeRestored: '2026-11-27T03:35:00+05:30' }), outages[1]]);
    await poll();
    expect(titles(topic)).toHaveLength(2);
    expect(titles(SYSTEM)).toContain('Power restored: Kandy'); // no quiet hours there: at once
    expect((await ledgerOf(kandy.publicId)).filter((row) => row.status === 'held').map((row) => row.event_type)).toEqual([
      'EstimateUpdated',
      'EstimateUpdated',
      'Restoration',
    ]);

    // 06:29: still quiet; nothing is released.
    clock = at('2026-11-27T00:59:00Z');
    await release();
    expect(titles(topic)).toHaveLength(2);

    // 06:31, the hours over but the catch-up not yet made: news that is not urgent waits for it (it never overtakes the older news).
    clock = at('2026-11-27T01:01:00Z');
    setOutages([outages[0], outage('PO-Q2', 'Kandy', '2026-11-27T01:55:00+05:30', { estimatedRestoration: '2026-11-27T09:00:00+05:30' })]);
    await poll();
    expect(titles(topic)).toHaveLength(2);
    // One catch-up, a line per outage (PO-Q1's with its first and last times); the ledger ties the held rows to it.
    await release();
    const messages = push.messages(topic);
    expect(messages).toHaveLength(3);
    const catchUp = messages[2];
    expect(catchUp.title).toBe('While you were away: 2 updates');
    expect(catchUp.message?.split('\n')).toEqual([
      'Power restored: Kandy (3 changes, at 22:30 GMT+5:30 and 03:40 GMT+5:30)',
      'Power outage, new estimate: Kandy (at 06:31 GMT+5:30)',
    ]);
    const rows = await ledgerOf(kandy.publicId);
    const catchUpRow = rows.find((row) => row.event_type === 'CatchUp')!;
    expect(catchUpRow.status).toBe('delivered');
    expect(rows.filter((row) => row.status === 'merged').map((row) => Number(row.merged_into))).toEqual(Array(4).fill(Number(catchUpRow.id)));

    // Released once: another run (or a later poll) adds nothing.
    await release();
    await poll();
    expect(push.messages(topic)).toHaveLength(3);
  });

  it('a DST night (London falls back): held through the repeated hour, released once when two instances look together', async () => {
    clock = at('2026-10-24T23:40:00Z'); // 00:40 BST, inside 00:30–02:30
    const galle = await subscribe('Galle, London hours', 'Galle', { quietHours: { start: '00:30', end: '02:30', timeZone: 'Europe/London' } });
    const topic = galle.delivery.destination;
    setOutages([outage('PO-D1', 'Galle', '2026-10-25T04:00:00+05:30')]);
    await poll();
    expect(titles(topic)).toEqual(['Power outage: Galle']); // urgent: at once
    // 01:30 GMT, the second 01:30 of the night: the restoration is held.
    clock = at('2026-10-25T01:30:00Z');
    setOutages([outage('PO-D1', 'Galle', '2026-10-25T04:00:00+05:30', { timeRestored: '2026-10-25T06:55:00+05:30' })]);
    await poll();
    expect((await ledgerOf(galle.publicId)).map((row) => row.status)).toEqual(['delivered', 'held']);
    clock = at('2026-10-25T02:29:00Z');
    await release();
    expect(titles(topic)).toHaveLength(1);

    // 02:30 GMT: the window is over. Two instances (on PostgreSQL; one on the embedded database) release at once: one catch-up.
    clock = at('2026-10-25T02:31:00Z');
    if (database.kind === 'postgres') second = await startTestApp({ database, pluginsDir: pluginsDir(), now: () => clock, env: env(), workers: true });
    await Promise.all([release(app), release(second?.app ?? app)]);
    await expect.poll(() => push.messages(topic).length, { timeout: 20_000 }).toBe(2);
    await servicesOf(app).dispatcher.settle();
    expect(push.messages(topic)[1]).toMatchObject({ title: 'While you were away: 1 update', message: 'Power restored: Galle (at 01:30 GMT)' });
    expect((await ledgerOf(galle.publicId)).map((row) => [row.event_type, row.status])).toEqual([
      ['NewOutage', 'delivered'],
      ['Restoration', 'merged'],
      ['CatchUp', 'delivered'],
    ]);
    // The second instance's workers would lease the next test's rows, which app's settle() does not wait for.
    await second?.close();
    second = undefined;
  });

  it('an event that says it is urgent comes at once inside quiet hours, whatever its type; the same type not marked waits', async () => {
    clock = at('2026-11-27T18:00:00Z'); // 23:30 in Colombo, inside 22:00–06:30
    const matale = await subscribe('Matale nights', 'Matale', { quietHours: { start: '22:00', end: '06:30' } });
    const topic = matale.delivery.destination;
    const estimate = (id: string, urgent?: boolean) => ({
      feedId: 'utility.power-outages',
      eventType: 'EstimateUpdated',
      sourceKey: id,
      fields: { feeder: 'F9', areas: 'Matale', area: 'Matale' },
      sourcePayload: outage(id, 'Matale', '2026-11-27T23:00:00+05:30', { estimatedRestoration: '2026-11-28T09:00:00+05:30' }),
      ...(urgent === undefined ? {} : { urgent }),
    });
    // A feed maps a severe change as urgent: EstimateUpdated is not an urgent type, this one event is.
    await servicesOf(app).pipeline.processNotificationEvents([estimate('PO-U1', true), estimate('PO-U2')]);
    await servicesOf(app).dispatcher.settle();
    expect(titles(topic)).toEqual(['Power outage, new estimate: Matale']);
    expect((await ledgerOf(matale.publicId)).map((row) => [row.source_key, row.status])).toEqual([
      ['PO-U1', 'delivered'],
      ['PO-U2', 'held'],
    ]);
  });
});
