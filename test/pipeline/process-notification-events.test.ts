import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationEvent } from '../../core/plugin-api/index.ts';
import { databaseKinds, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { advanceLedgerClock } from '../helpers/ledger-clock.ts';
import { pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const POWER = 'utility.power-outages';
const SCHEDULED = 'utility.scheduled-outages';

const outage = (id: string, feeder: string, areas: string[], eventType = 'NewOutage'): NotificationEvent => ({
  feedId: POWER,
  eventType,
  sourceKey: id,
  fields: { feeder, areas: areas.join(', ') },
  sourcePayload: { id, feeder, areas, timeOff: '2026-11-22T08:15:00+05:30', timeRestored: eventType === 'NewOutage' ? null : '2026-11-22T10:00:00+05:30' },
});

describe.each(await databaseKinds())('ProcessNotificationEvents on %s', (kind) => {
  let database: ProvisionedDatabase;
  let started: TestApp;
  const knex = () => servicesOf(started.app).database.knex;
  const pipeline = () => servicesOf(started.app).pipeline;
  const dispatcher = () => servicesOf(started.app).dispatcher;

  async function subscribe(feedId: string, filter: object, provider = 'Push', destination?: string): Promise<{ id: number; publicId: string }> {
    const response = await started.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: `sub ${Math.random()}`, feedId, filter, delivery: { provider, ...(destination ? { destination } : {}) } },
    });
    expect(response.statusCode, response.body).toBe(201);
    const { publicId } = response.json();
    const row = await knex()('notification_subscriptions').where({ public_id: publicId }).first();
    return { id: Number(row.id), publicId };
  }
  const pushDeliveries = () => knex()('fixture_push_deliveries').orderBy('id');
  const ledger = () => knex()('notification_delivery_ledger').orderBy('id');
  const control = (mode: string, remaining: number) => knex()('fixture_push_control').update({ mode, remaining });

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    started = await startTestApp({
      database,
      pluginsDir: pipelinePluginsDir(),
      workers: false,
      env: {
        SubscriptionLimits__MaxPerIp: '1000',
        SubscriptionLimits__MaxPerIpPerDay: '1000',
        NotificationPipeline__CooldownSeconds: '2',
        NotificationPipeline__SystemSubscriptions__PowerOutages__FeedId: POWER,
        NotificationPipeline__SystemSubscriptions__PowerOutages__PushTopic: 'utility-power-outages',
      },
    });
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await knex()('notification_delivery_ledger').delete();
    await knex()('notification_subscriptions').whereNot({ scope: 'System' }).delete();
    await knex()('fixture_push_deliveries').delete();
    await knex()('fixture_email_outbox').delete();
    await control('ok', 0);
  });

  it('matches filters, delivers once per subscription and skips what the ledger holds', async () => {
    const f12 = await subscribe(POWER, { feeders: ['f12'] });
    await subscribe(POWER, { locationKeywords: ['Galle'] });
    const email = await subscribe(POWER, { feeders: ['F12'] }, 'Email', 'Someone@Example.org');
    await knex()('notification_subscriptions').where({ id: email.id }).update({ is_active: true });

    const first = await pipeline().processNotificationEvents([outage('PO-1', 'F12', ['Kandy'])], { awaitDelivery: true });
    // F12 push, F12 email and the system subscription; the Galle one does not match.
    expect(first).toEqual({ matchedSubscriptionCount: 3, deliveredCount: 3, claimedCount: 3, wasSystemDelivery: true });
    const pushed = await pushDeliveries();
    expect(pushed.map((row) => row.destination).sort()).toEqual(
      [
        ...(await knex()('notification_subscriptions').whereIn('scope', ['System']).pluck('destination')),
        (await knex()('notification_subscriptions').where({ id: f12.id }).first()).destination,
      ].sort(),
    );
    expect(pushed[0].title).toBe('Power outage: Kandy');
    expect(await knex()('fixture_email_outbox').where({ kind: 'notification' }).pluck('recipient')).toEqual(['someone@example.org']);

    const again = await pipeline().processNotificationEvents([outage('PO-1', 'F12', ['Kandy'])], { awaitDelivery: true });
    expect(again).toEqual({ matchedSubscriptionCount: 3, deliveredCount: 0, claimedCount: 0, wasSystemDelivery: true });
    expect(await pushDeliveries()).toHaveLength(2);
    const rows = await ledger();
    expect(rows.map((row) => row.status).sort()).toEqual(['delivered', 'delivered', 'queued']);
    // The push and the email subscription with the same filter have independent rows.
    expect(rows.filter((row) => [f12.id, email.id].includes(Number(row.subscription_id)))).toHaveLength(2);
  });

  it('refuses an event type the feed cannot render, before storing anything', async () => {
    const events = Number((await knex()('notification_events').count({ n: '*' }))[0].n);
    await expect(pipeline().processNotificationEvents([outage('PO-9', 'F1', ['X'], 'Exploded')])).rejects.toMatchObject({ code: 'NP_NO_RENDERER' });
    expect(Number((await knex()('notification_events').count({ n: '*' }))[0].n)).toBe(events);
  });

  it('retries a transient failure from the ledger and delivers exactly once', async () => {
    await subscribe(SCHEDULED, {});
    await control('retry', 2);
    const item = { id: 'SO-2', date: '2026-11-24', start: '09:00', end: '17:00', feeder: 'F3', areas: ['Gampola'], status: 'scheduled' };
    const event: NotificationEvent = { feedId: SCHEDULED, eventType: 'NewEntry', sourceKey: 'SO-2', fields: {}, sourcePayload: item };
    const result = await pipeline().processNotificationEvents([event], { awaitDelivery: true });
    expect(result).toMatchObject({ matchedSubscriptionCount: 1, claimedCount: 1, deliveredCount: 0 });
    const [waiting] = await ledger();
    expect(waiting).toMatchObject({ status: 'retrying', attempts: 1, last_error: 'fixture busy' });
    // Backoff is in the ledger, not in memory: about 5 s (±20 %) after the first attempt.
    expect(
      (await knex().raw("SELECT next_attempt_at > now() + interval '2 seconds' AS later FROM notification_delivery_ledger WHERE id = ?", [waiting.id])).rows[0]
        .later,
    ).toBe(true);
    await dispatcher().drain();
    expect((await ledger())[0].status).toBe('retrying');
    for (let round = 0; round < 2; round += 1) {
      await knex()('notification_delivery_ledger').update({ next_attempt_at: knex().fn.now() });
      await dispatcher().drain();
    }
    expect((await ledger()).map((row) => [row.status, row.attempts])).toEqual([['delivered', 3]]);
    expect(await pushDeliveries()).toHaveLength(1);
    expect(await pipeline().processNotificationEvents([event], { awaitDelivery: true })).toMatchObject({ claimedCount: 0 });
  });

  it('records a permanent failure, does not retry it, and still delivers the others', async () => {
    await subscribe(POWER, {});
    await control('fail', 1);
    const result = await pipeline().processNotificationEvents([outage('PO-3', 'F1', ['Matale'])], { awaitDelivery: true });
    expect(result).toMatchObject({ matchedSubscriptionCount: 2, deliveredCount: 1, claimedCount: 2 });
    const failed = await knex()('notification_delivery_ledger').where({ status: 'failed' });
    expect(failed).toHaveLength(1);
    expect(failed[0].last_error).toBe('fixture refused');
    await dispatcher().drain();
    expect(await pushDeliveries()).toHaveLength(1);
  });

  it('does not deliver to a subscription that stopped between its claim and its delivery', async () => {
    const { id } = await subscribe(POWER, {});
    await knex().transaction(async (trx) => {
      await pipeline().processNotificationEvents([outage('PO-8', 'F1', ['Kandy'])], { trx });
      await trx('notification_subscriptions').where({ id }).update({ is_active: false });
    });
    await dispatcher().settle();
    expect((await pushDeliveries()).map((row) => row.subscription_public_id)).toEqual(['system-poweroutages']);
    expect(await knex()('notification_delivery_ledger').where({ subscription_id: id }).first('status', 'last_error')).toEqual({
      status: 'failed',
      last_error: 'subscription is no longer active',
    });
  });

  it('a caller that waits keeps its rows: a lane batch run between the claim and the delivery takes none of them', async () => {
    await subscribe(POWER, { feeders: ['F4'] });
    const lanes = servicesOf(started.app).lanes;
    const deliverNow = lanes.deliverNow.bind(lanes);
    // The race a loaded machine makes: the lanes' own batches run after the claim commits and before the caller delivers.
    let drained = false;
    lanes.deliverNow = async (ids, token) => {
      await lanes.drain();
      drained = true;
      return deliverNow(ids, token);
    };
    try {
      const result = await pipeline().processNotificationEvents([outage('PO-11', 'F4', ['Kandy'])], { awaitDelivery: true });
      expect(drained).toBe(true);
      expect(result).toEqual({ matchedSubscriptionCount: 2, deliveredCount: 2, claimedCount: 2, wasSystemDelivery: true });
    } finally {
      lanes.deliverNow = deliverNow;
    }
    expect(await pushDeliveries()).toHaveLength(2);
    expect((await ledger()).map((row) => [row.status, row.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
  });

  it('counts a system delivery only while it is live: one that failed for good no longer does (digest runs wait)', async () => {
    await control('fail', 1);
    const first = await pipeline().processNotificationEvents([outage('PO-10', 'F1', ['Kandy'])], { awaitDelivery: true });
    expect(first).toMatchObject({ claimedCount: 1, wasSystemDelivery: true });
    expect(await knex()('notification_delivery_ledger').first('status')).toEqual({ status: 'failed' });
    const again = await pipeline().processNotificationEvents([outage('PO-10', 'F1', ['Kandy'])], { awaitDelivery: true });
    expect(again).toMatchObject({ claimedCount: 0, wasSystemDelivery: false });
  });

  it('reports no system delivery for a feed without a system subscription', async () => {
    await subscribe(SCHEDULED, {});
    const event: NotificationEvent = {
      feedId: SCHEDULED,
      eventType: 'NewEntry',
      sourceKey: 'SO-1',
      fields: { feeder: 'F3', areas: 'Gampola' },
      sourcePayload: { id: 'SO-1', date: '2026-11-24', start: '09:00', end: '17:00', feeder: 'F3', areas: ['Gampola'], status: 'scheduled' },
    };
    expect(await pipeline().processNotificationEvents([event], { awaitDelivery: true })).toMatchObject({ deliveredCount: 1, wasSystemDelivery: false });
  });

  it('coalesces Updated events of one item inside the cooldown and delivers the latest when it ends', async () => {
    await subscribe(SCHEDULED, {});
    const item = { id: 'SO-7', date: '2026-11-24', start: '09:00', end: '17:00', feeder: 'F3', areas: ['Gampola'], status: 'scheduled' };
    const updated = (key: string, end: string): NotificationEvent => ({
      feedId: SCHEDULED,
      eventType: 'Updated',
      sourceKey: `SO-7-${key}`,
      itemKey: 'SO-7',
      fields: { feeder: 'F3', areas: 'Gampola' },
      sourcePayload: { item: { ...item, end }, changes: [{ field: 'end', from: '17:00', to: end }] },
    });
    await pipeline().processNotificationEvents([{ feedId: SCHEDULED, eventType: 'NewEntry', sourceKey: 'SO-7', fields: {}, sourcePayload: item }], {
      awaitDelivery: true,
    });
    expect(await pushDeliveries()).toHaveLength(1);
    await pipeline().processNotificationEvents([updated('a', '18:00')], { awaitDelivery: true });
    await pipeline().processNotificationEvents([updated('b', '19:00')], { awaitDelivery: true });
    expect(await pushDeliveries()).toHaveLength(1);
    expect((await ledger()).map((row) => row.status)).toEqual(['delivered', 'superseded', 'pending']);
    // The cooldown (2 s) ends: the database's clock moves on, as the ledger sees it.
    await advanceLedgerClock(knex(), 2);
    await dispatcher().drain();
    const delivered = await pushDeliveries();
    expect(delivered).toHaveLength(2);
    expect(delivered[1].body).toContain('end: 17:00 → 19:00');
    // A change still waiting when the outage is cancelled never arrives after the cancellation.
    await pipeline().processNotificationEvents([updated('c', '20:00')], { awaitDelivery: true });
    await pipeline().processNotificationEvents(
      [{ feedId: SCHEDULED, eventType: 'Cancelled', sourceKey: 'SO-7', itemKey: 'SO-7', fields: {}, sourcePayload: { ...item, status: 'cancelled' } }],
      { awaitDelivery: true },
    );
    expect((await ledger()).map((row) => row.status)).toEqual(['delivered', 'superseded', 'delivered', 'superseded', 'delivered']);
    expect((await pushDeliveries()).at(-1)!.title).toMatch(/^Planned outage cancelled/);
  });

  it('a Restoration supersedes the estimate updates of its outage still waiting for the cooldown, and nothing else', async () => {
    // The outage had no estimate when announced: the update gives one, which is news.
    const estimate = (id: string): NotificationEvent => ({
      ...outage(id, 'F1', ['Kandy']),
      eventType: 'EstimateUpdated',
      sourceKey: `${id}:etr:1`,
      itemKey: id,
      sourcePayload: { ...(outage(id, 'F1', ['Kandy']).sourcePayload as object), estimatedRestoration: '2026-11-22T12:00:00+05:30' },
    });
    await pipeline().processNotificationEvents([outage('PO-20', 'F1', ['Kandy']), outage('PO-21', 'F1', ['Kandy'])], { awaitDelivery: true });
    await pipeline().processNotificationEvents([estimate('PO-20'), estimate('PO-21')], { awaitDelivery: true });
    expect(await pushDeliveries()).toHaveLength(2); // the system subscription's two NewOutages; the estimates wait
    await pipeline().processNotificationEvents([outage('PO-20', 'F1', ['Kandy'], 'Restoration')], { awaitDelivery: true });
    const rows = await knex()('notification_delivery_ledger').whereLike('source_key', '%:etr:%').orderBy('source_key').select('source_key', 'status');
    expect(rows).toEqual([
      { source_key: 'PO-20:etr:1', status: 'superseded' },
      { source_key: 'PO-21:etr:1', status: 'pending' },
    ]);
    expect((await pushDeliveries()).map((row) => row.title)).toEqual(['Power outage: Kandy', 'Power outage: Kandy', 'Power restored: Kandy']);
  });

  it('returns once the deliveries are claimed, while a slow delivery is still running', async () => {
    await subscribe(POWER, {});
    await control('hang', 1);
    const result = await pipeline().processNotificationEvents([outage('PO-4', 'F1', ['Matale'])]);
    expect(result).toMatchObject({ matchedSubscriptionCount: 2, claimedCount: 2, deliveredCount: 0 });
    // The system row waits for a dispatcher's lease; the first page went to this one already leased: two batches.
    // One delivery hangs and stays leased, the other is made: the call waited for neither.
    await expect.poll(async () => (await ledger()).map((row) => row.status).sort(), { timeout: 5000 }).toEqual(['delivered', 'delivering']);
    expect(await pushDeliveries()).toHaveLength(1);
  });
});

describe('the master switch', () => {
  it('delivers nothing and stores nothing when NotificationPipeline__Enabled=false', async () => {
    const database = await provisionDatabase((await databaseKinds())[0]);
    const started = await startTestApp({ database, pluginsDir: pipelinePluginsDir(), workers: false, env: { NotificationPipeline__Enabled: 'false' } });
    try {
      const result = await servicesOf(started.app).pipeline.processNotificationEvents([outage('PO-5', 'F1', ['X'])], { awaitDelivery: true });
      expect(result).toEqual({ matchedSubscriptionCount: 0, deliveredCount: 0, claimedCount: 0, wasSystemDelivery: false });
      expect(Number((await servicesOf(started.app).database.knex('notification_events').count({ n: '*' }))[0].n)).toBe(0);
    } finally {
      await started.close();
      await database.drop();
    }
  });
});

describe('dispatcher shutdown', () => {
  it('does not wait forever for a target that ignores the abort signal', async () => {
    const { DeliveryLane, EventCache, LaneControl } = await import('../../core/delivery/index.ts');
    const { QueueRegistry } = await import('../../core/queue/queue-registry.ts');
    const { createWakeups } = await import('../../core/queue/wakeups.ts');
    const { pino } = await import('pino');
    const lines: string[] = [];
    let handed = 0;
    const database = await provisionDatabase((await databaseKinds())[0]);
    const started = await startTestApp({ database, pluginsDir: pipelinePluginsDir(), workers: false });
    try {
      const knex = servicesOf(started.app).database.knex;
      const created = await started.app.inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: { displayName: 's', feedId: POWER, delivery: { provider: 'Push' } },
      });
      expect(created.statusCode).toBe(201);
      await servicesOf(started.app).pipeline.processNotificationEvents([outage('PO-7', 'F1', ['X'])], {});
      await servicesOf(started.app).dispatcher.settle();
      await knex('notification_delivery_ledger').update({ status: 'pending' });
      const log = pino({}, { write: (line: string) => void lines.push(line) });
      const wakeups = createWakeups(knex, 'pglite', log);
      const queues = new QueueRegistry(wakeups, log);
      const stuck = new DeliveryLane({
        provider: 'Push',
        target: {
          provider: 'Push',
          startsActive: true,
          prepareDestination: () => 'x',
          subscribeUrl: () => null,
          deliver: () => {
            handed += 1;
            return new Promise(() => undefined);
          },
        },
        db: knex,
        queues,
        control: new LaneControl({ db: knex, provider: 'Push', ratePerSecond: 0, wakeups, log }),
        events: new EventCache(),
        log,
        settings: { batchSize: 10, batchesInFlight: 1, retry: { baseSeconds: 5, maxSeconds: 60, maxAttempts: 3 }, leaseSeconds: 30, sweepSeconds: 60 },
      });
      queues.start({ sweeps: false });
      stuck.wake();
      // Handed to the target (a row leased but not yet handed is put back, not waited on).
      await expect.poll(() => handed).toBe(1);
      const before = Date.now();
      await queues.stop(300);
      // The target never answers: without the grace period stop() would never return.
      expect(Date.now() - before).toBeLessThan(5000);
      expect(lines.join('')).toContain('still running after the grace period');
    } finally {
      await started.close();
      await database.drop();
    }
  });
});
