import { rmSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { capSchemaErrors, parseCap, referencesOf } from '../helpers/cap-validation.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { advanceLedgerClock } from '../helpers/ledger-clock.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const MONITOR = 'utility-power-outages.monitor';
const SYSTEM = 'utility-power-outages';
const minutes = (iso: string, n: number) => new Date(Date.parse(iso) + n * 60_000);
const outage = (id: string, timeOff: string, patch: Record<string, unknown> = {}) => ({
  id,
  feeder: 'F12',
  areas: ['Kandy'],
  timeOff,
  timeRestored: null,
  cause: 'Fallen line',
  customersAffected: 1200,
  ...patch,
});

/** The service on the feed and push doubles with a clock the test sets, a Kandy subscriber and the system topic. */
function lifecycleHarness() {
  const h = {
    database: undefined as unknown as ProvisionedDatabase,
    feed: undefined as unknown as UtilityFeedDouble,
    push: undefined as unknown as PushServerDouble,
    started: undefined as TestApp | undefined,
    app: undefined as unknown as FastifyInstance,
    pluginsDir: '',
    kandy: '',
    clock: new Date(),
    async start(env: Record<string, string>) {
      h.started = await startTestApp({
        database: h.database,
        pluginsDir: h.pluginsDir,
        now: () => h.clock,
        env: e2eEnv(
          h.feed,
          h.push,
          { PowerOutages__Enabled: 'true', PowerOutages__PollingIntervalSeconds: '3600', PowerOutages__TimeZone: 'Asia/Colombo', ...env },
          () => h.clock,
        ),
      });
      h.app = h.started.app;
      // The poll made at start (when its lease is due): waited for, so every poll after it is the test's own.
      await servicesOf(h.app).workers.runNow(MONITOR);
    },
    async restart(env: Record<string, string>) {
      await h.started?.close();
      await h.start(env);
    },
    /** One poll now, then every delivery that is due. */
    async poll() {
      await servicesOf(h.app).workers.runNow(MONITOR, { force: true });
      await servicesOf(h.app).dispatcher.settle();
    },
    titles: (topic: string) => h.push.messages(topic).map((message) => message.title ?? ''),
    knex: () => servicesOf(h.app).database.knex,
    ledger: (sourceKeyPrefix: string) => h.knex()('notification_delivery_ledger').whereLike('source_key', `${sourceKeyPrefix}%`).orderBy('id'),
  };
  beforeAll(async () => {
    h.database = await provisionDatabase(await preferredKind());
    [h.feed, h.push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
    h.pluginsDir = realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push']);
  });
  afterAll(async () => {
    await h.started?.close();
    await Promise.all([h.feed?.close(), h.push?.close()]);
    await h.database?.drop();
  });
  const subscribeKandy = async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'Kandy', feedId: 'utility.power-outages', filter: { locationKeywords: ['kandy'] }, delivery: { provider: 'Push' } },
    });
    expect(response.statusCode, response.body).toBe(201);
    h.kandy = response.json().delivery.destination;
  };
  return Object.assign(h, { subscribeKandy });
}

describe('PowerOutages__MinOutageMinutes=10 end to end: blips are never announced', () => {
  const h = lifecycleHarness();
  const env = { PowerOutages__MinOutageMinutes: '10' };
  const BLIP_OFF = '2026-11-22T08:00:00+05:30';
  const LONG_OFF = '2026-11-22T09:00:00+05:30';
  beforeAll(async () => {
    await h.start(env);
    await h.subscribeKandy();
  });

  it('a blip restored inside the window is never announced, to anyone, and the store records it', async () => {
    h.feed.setPowerOutages([outage('PO-BLIP', BLIP_OFF)]);
    h.clock = minutes(BLIP_OFF, 2);
    await h.poll();
    h.feed.setPowerOutages([outage('PO-BLIP', BLIP_OFF, { timeRestored: '2026-11-22T08:05:00+05:30' })]);
    h.clock = minutes(BLIP_OFF, 6);
    await h.poll();
    h.clock = minutes(BLIP_OFF, 30); // long past the window, the answer unchanged
    await h.poll();
    expect(h.push.allMessages()).toEqual([]);
    expect(await h.ledger('PO-BLIP')).toEqual([]);
    const [stored] = await h.knex()('power_outages').where({ id: 'PO-BLIP' });
    expect(stored).toMatchObject({ outage_notified_at: null, restoration_notified_at: null });
    expect(new Date(stored.time_restored).toISOString()).toBe('2026-11-22T02:35:00.000Z');
  });

  it('an outage past the window is announced once, on the first poll past it, though the answer did not change, across a restart', async () => {
    h.feed.setPowerOutages([outage('PO-LONG', LONG_OFF)]);
    h.clock = minutes(LONG_OFF, 1);
    await h.poll();
    const seen = await h.knex()('endpoint_checks').where({ key: 'utility-power-outages' }).first('content_sha256', 'last_changed_at');
    h.clock = minutes(LONG_OFF, 9);
    await h.poll();
    expect(h.push.allMessages()).toEqual([]);
    await h.restart(env); // the decision lives in the store, not in memory
    h.clock = minutes(LONG_OFF, 10);
    await h.poll();
    expect(h.titles(SYSTEM)).toEqual(['Power outage: Kandy']);
    expect(h.titles(h.kandy)).toEqual(['Power outage: Kandy']);
    // The feed's answer never changed after the first poll: the endpoint check did not move.
    expect(await h.knex()('endpoint_checks').where({ key: 'utility-power-outages' }).first('content_sha256', 'last_changed_at')).toEqual(seen);
    h.clock = minutes(LONG_OFF, 11);
    await h.poll();
    await h.restart(env);
    await h.knex()('endpoint_checks').delete(); // the same answer processed again from scratch
    await h.poll();
    expect(h.push.allMessages()).toHaveLength(2);
  });

  it('an outage that leaves the feed before its window ends is never announced', async () => {
    h.feed.setPowerOutages([outage('PO-LONG', LONG_OFF), outage('PO-SHORT', '2026-11-22T09:10:00+05:30')]);
    h.clock = minutes(LONG_OFF, 13);
    await h.poll();
    h.feed.setPowerOutages([outage('PO-LONG', LONG_OFF)]); // PO-SHORT leaves the answer, not restored
    h.clock = minutes(LONG_OFF, 14);
    await h.poll();
    h.clock = minutes(LONG_OFF, 40);
    await h.poll();
    expect(h.titles(SYSTEM)).toEqual(['Power outage: Kandy']);
    expect(await h.ledger('PO-SHORT')).toEqual([]);
    expect(await h.knex()('power_outages').where({ id: 'PO-SHORT' }).first('in_feed', 'outage_notified_at')).toEqual({
      in_feed: false,
      outage_notified_at: null,
    });
  });
});

describe('estimated restoration end to end, with the default MinOutageMinutes', () => {
  const h = lifecycleHarness();
  const OFF = '2026-11-22T08:15:00+05:30';
  const COOLDOWN_OUTSIDE = { NotificationPipeline__CooldownSeconds: '1' };
  // An hour: every poll of the test falls inside the window however loaded the machine is; the test ends the window itself (endWindow).
  const COOLDOWN_INSIDE = { NotificationPipeline__CooldownSeconds: '3600' };
  const estimateLines = (topic: string) =>
    h.push.messages(topic).map((message) => message.message?.split('\n').find((line) => line.startsWith('Estimated')) ?? '');
  const waitForMessages = async (topic: string, count: number) => {
    await expect.poll(() => h.push.messages(topic).length, { timeout: 30_000, interval: 200 }).toBe(count);
    // The push server holds a message before the batch that sent it records it: let that batch settle.
    await servicesOf(h.app).dispatcher.settle();
  };
  /** The cooldown (a second) passes: the database's clock moves on, as the ledger sees it. */
  const passCooldown = () => advanceLedgerClock(h.knex(), 1);
  /** The cooldown ends now for the rows it holds (what the hour passing would do), and the dispatcher is woken. */
  const endWindow = async () => {
    await h
      .knex()('notification_delivery_ledger')
      .whereIn('status', ['pending', 'retrying'])
      .where('next_attempt_at', '>', h.knex().fn.now())
      .update({ next_attempt_at: h.knex().fn.now() });
    servicesOf(h.app).dispatcher.wake();
    await servicesOf(h.app).dispatcher.settle();
  };
  const statusesOf = async (prefix: string) => (await h.ledger(prefix)).map((row) => [row.source_key, row.status]);

  beforeAll(async () => {
    h.clock = minutes(OFF, 15);
    await h.start(COOLDOWN_OUTSIDE);
    await h.subscribeKandy();
  });

  it("NewOutage shows the estimate; two changes outside the cooldown give two messages with the outage's sequence id", async () => {
    h.feed.setPowerOutages([outage('PO-1', OFF, { estimatedRestoration: '2026-11-22T12:00:00+05:30' })]);
    await h.poll();
    expect(estimateLines(h.kandy)).toEqual(['Estimated restoration: 22 Nov 2026, 12:00 GMT+5:30']);
    await passCooldown();
    h.feed.setPowerOutages([outage('PO-1', OFF, { estimatedRestoration: '2026-11-22T13:00:00+05:30' })]);
    await h.poll();
    await waitForMessages(h.kandy, 2);
    await passCooldown();
    h.feed.setPowerOutages([outage('PO-1', OFF, { estimatedRestoration: '2026-11-22T14:30:00+05:30' })]);
    await h.poll();
    await waitForMessages(h.kandy, 3);
    for (const topic of [h.kandy, SYSTEM]) {
      const messages = h.push.messages(topic);
      expect(messages.map((message) => message.title)).toEqual([
        'Power outage: Kandy',
        'Power outage, new estimate: Kandy',
        'Power outage, new estimate: Kandy',
      ]);
      expect(new Set(messages.map((message) => message.sequence_id))).toEqual(new Set(['po-PO-1']));
    }
    expect(estimateLines(h.kandy).slice(1)).toEqual([
      'Estimated restoration: 22 Nov 2026, 13:00 GMT+5:30',
      'Estimated restoration: 22 Nov 2026, 14:30 GMT+5:30',
    ]);
    expect((await h.ledger('PO-1:etr:')).map((row) => [row.source_key, row.status])).toEqual([
      ['PO-1:etr:1', 'delivered'],
      ['PO-1:etr:1', 'delivered'],
      ['PO-1:etr:2', 'delivered'],
      ['PO-1:etr:2', 'delivered'],
    ]);
  });

  it('the same estimate twice gives nothing (an unchanged answer, another field changed, the same instant with another offset)', async () => {
    await passCooldown();
    const before = h.push.allMessages().length;
    await h.poll();
    h.feed.setPowerOutages([outage('PO-1', OFF, { estimatedRestoration: '2026-11-22T14:30:00+05:30', customersAffected: 900 })]);
    await h.poll();
    h.feed.setPowerOutages([outage('PO-1', OFF, { estimatedRestoration: '2026-11-22T09:00:00Z', customersAffected: 900 })]);
    await h.poll();
    await passCooldown();
    servicesOf(h.app).dispatcher.wake();
    await servicesOf(h.app).dispatcher.settle();
    expect(h.push.allMessages()).toHaveLength(before);
  });

  it('a restart between changes repeats nothing, and the count goes on', async () => {
    const before = h.push.allMessages().length;
    await h.restart(COOLDOWN_OUTSIDE);
    await h.knex()('endpoint_checks').delete(); // the same answer processed again from scratch
    await h.poll();
    expect(h.push.allMessages()).toHaveLength(before);
    h.feed.setPowerOutages([outage('PO-1', OFF, { estimatedRestoration: '2026-11-22T15:00:00+05:30' })]);
    await h.poll();
    await waitForMessages(h.kandy, 4);
    expect(h.push.messages(h.kandy).at(-1)?.message).toContain('Estimated restoration: 22 Nov 2026, 15:00 GMT+5:30');
    expect([...new Set((await h.ledger('PO-1:etr:')).map((row) => row.source_key))]).toEqual(['PO-1:etr:1', 'PO-1:etr:2', 'PO-1:etr:3']);
  });

  it("an estimate update is a CAP Update that references its outage's NewOutage and earlier estimates", async () => {
    const events = await h
      .knex()('notification_events')
      .where({ feed_id: 'utility.power-outages', item_key: 'PO-1' })
      .orderBy('id')
      .select('id', 'event_type', 'source_key');
    expect(events.map((event) => event.source_key)).toEqual(['PO-1', 'PO-1:etr:1', 'PO-1:etr:2', 'PO-1:etr:3']);
    const response = await h.app.inject({ method: 'GET', url: `/api/notification-events/${events[2].id}/cap.xml` });
    expect(response.statusCode).toBe(200);
    expect(await capSchemaErrors(response.body)).toEqual([]);
    const alert = parseCap(response.body);
    expect(alert).toMatchObject({
      msgType: 'Update',
      info: { event: 'Power outage', urgency: 'Immediate', severity: 'Moderate', certainty: 'Observed', headline: 'Power outage, new estimate: Kandy' },
    });
    expect(alert.info.description).toContain('Estimated restoration: 22 Nov 2026, 14:30 GMT+5:30');
    expect(referencesOf(alert).map((ref) => Number(ref.identifier.split('-').at(-1)))).toEqual([Number(events[0].id), Number(events[1].id)]);
  });

  it('three changes inside the cooldown give one message, with the latest estimate', async () => {
    await h.restart(COOLDOWN_INSIDE);
    h.feed.setPowerOutages([outage('PO-2', OFF, { estimatedRestoration: '2026-11-22T12:00:00+05:30' })]);
    await h.poll();
    await waitForMessages(h.kandy, 5); // PO-2's NewOutage: the cooldown runs from here
    for (const estimate of ['2026-11-22T12:30:00+05:30', '2026-11-22T13:00:00+05:30', '2026-11-22T16:45:00+05:30']) {
      h.feed.setPowerOutages([outage('PO-2', OFF, { estimatedRestoration: estimate })]);
      await h.poll();
    }
    // Inside the window: each change replaced the one before it, the latest waits, nothing more went out.
    expect(await statusesOf('PO-2:etr:')).toEqual([
      ['PO-2:etr:1', 'superseded'],
      ['PO-2:etr:1', 'superseded'],
      ['PO-2:etr:2', 'superseded'],
      ['PO-2:etr:2', 'superseded'],
      ['PO-2:etr:3', 'pending'],
      ['PO-2:etr:3', 'pending'],
    ]);
    expect(h.push.messages(h.kandy)).toHaveLength(5);
    await endWindow();
    await waitForMessages(h.kandy, 6);
    expect(h.titles(h.kandy).slice(-2)).toEqual(['Power outage: Kandy', 'Power outage, new estimate: Kandy']);
    expect(estimateLines(h.kandy).at(-1)).toBe('Estimated restoration: 22 Nov 2026, 16:45 GMT+5:30');
    expect(h.push.messages(h.kandy).at(-1)?.sequence_id).toBe('po-PO-2');
    const statuses = (await h.ledger('PO-2:etr:')).map((row) => [row.source_key, row.status]);
    expect(statuses.filter(([, status]) => status === 'delivered').map(([key]) => key)).toEqual(['PO-2:etr:3', 'PO-2:etr:3']);
    expect(statuses.filter(([, status]) => status === 'superseded')).toHaveLength(4);
  });

  it('a Restoration replaces them all: it shares the sequence id, and an estimate still waiting is never sent after it', async () => {
    // 45 minutes from the 16:45 told: news, but it waits, as PO-2's last message went out less than a cooldown ago.
    h.feed.setPowerOutages([outage('PO-2', OFF, { estimatedRestoration: '2026-11-22T17:30:00+05:30' })]);
    await h.poll();
    h.feed.setPowerOutages([outage('PO-2', OFF, { estimatedRestoration: '2026-11-22T17:30:00+05:30', timeRestored: '2026-11-22T12:10:00+05:30' })]);
    await h.poll();
    await waitForMessages(h.kandy, 7);
    await endWindow(); // past the window the estimate would have waited for
    await servicesOf(h.app).dispatcher.settle();
    expect(h.titles(h.kandy).slice(-2)).toEqual(['Power outage, new estimate: Kandy', 'Power restored: Kandy']);
    expect(h.push.messages(h.kandy).at(-1)?.sequence_id).toBe('po-PO-2');
    expect((await h.ledger('PO-2:etr:4')).map((row) => row.status)).toEqual(['superseded', 'superseded']);
  });
});

describe('upgrading a store whose ongoing outages already carried estimates', () => {
  const h = lifecycleHarness();
  const OFF = '2026-11-22T08:15:00+05:30';
  const LIFECYCLE_MIGRATION = '20261124110000_utility_power_outages_lifecycle.ts';

  it('takes their estimates as known: the first poll after the upgrade announces nothing', async () => {
    const answer = [outage('PO-OLD', OFF, { estimatedRestoration: '2026-11-22T12:00:00+05:30' })];
    h.clock = minutes(OFF, 30);
    // The service before the lifecycle migration, with an outage announced then (the payload kept the estimate it did not read).
    const full = h.pluginsDir;
    h.pluginsDir = realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push']);
    rmSync(path.join(h.pluginsDir, 'utility-power-outages', 'migrations', LIFECYCLE_MIGRATION));
    await h.start({});
    const now = h.clock.toISOString();
    await h
      .knex()('power_outages')
      .insert({
        id: 'PO-OLD',
        feeder: 'F12',
        areas: JSON.stringify(['Kandy']),
        time_off: OFF,
        outage_notified_at: now,
        first_seen_at: now,
        last_seen_at: now,
        payload: answer[0],
      });
    h.pluginsDir = full;
    await h.restart({});
    expect(await h.knex()('power_outages').where({ id: 'PO-OLD' }).first('estimate_changes', 'in_feed')).toEqual({ estimate_changes: 0, in_feed: true });
    expect(new Date((await h.knex()('power_outages').where({ id: 'PO-OLD' }).first('estimated_restoration')).estimated_restoration).toISOString()).toBe(
      '2026-11-22T06:30:00.000Z',
    );
    h.feed.setPowerOutages(answer);
    await h.poll();
    expect(h.push.allMessages()).toEqual([]);
    // A real change afterwards is announced as the first.
    h.feed.setPowerOutages([outage('PO-OLD', OFF, { estimatedRestoration: '2026-11-22T13:00:00+05:30' })]);
    await h.poll();
    expect(h.titles(SYSTEM)).toEqual(['Power outage, new estimate: Kandy']);
    expect(await h.ledger('PO-OLD')).toMatchObject([{ source_key: 'PO-OLD:etr:1' }]);
  });
});
