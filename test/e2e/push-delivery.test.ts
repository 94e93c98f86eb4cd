import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationEvent } from '../../core/plugin-api/index.ts';
import { DEFAULT_PUBLISHER_TOKEN, startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const event = (id: string, eventType = 'NewOutage'): NotificationEvent => ({
  feedId: 'utility.power-outages',
  eventType,
  sourceKey: id,
  itemKey: id,
  fields: { feeder: 'F1', areas: 'Kandy' },
  sourcePayload: {
    id,
    feeder: 'F1',
    areas: ['Kandy'],
    timeOff: '2026-11-22T08:15:00+05:30',
    timeRestored: eventType === 'NewOutage' ? null : '2026-11-22T09:00:00+05:30',
  },
});

describe('push delivery through the pipeline and the dispatcher', () => {
  let database: ProvisionedDatabase;
  let push: PushServerDouble;
  let pluginsDir: string;
  let started: TestApp;
  const start = async (token = DEFAULT_PUBLISHER_TOKEN) => {
    started = await startTestApp({
      database,
      pluginsDir,
      workers: false,
      env: {
        Notifications__Push__BaseUrl: push.baseUrl,
        Notifications__Push__PublishToken: token,
        Notifications__Push__TimeoutSeconds: '1',
        NotificationPipeline__SystemSubscriptions__PowerOutages__FeedId: 'utility.power-outages',
        NotificationPipeline__SystemSubscriptions__PowerOutages__PushTopic: 'utility-power-outages',
      },
    });
  };
  const knex = () => servicesOf(started.app).database.knex;
  const ledger = () => knex()('notification_delivery_ledger').orderBy('id');
  /** Makes waiting retries due now instead of after their backoff. */
  const retryNow = async () => {
    await knex()('notification_delivery_ledger').where({ status: 'retrying' }).update({ next_attempt_at: knex().fn.now() });
    await servicesOf(started.app).dispatcher.drain();
  };
  const messages = () => push.messages('utility-power-outages');

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    push = await startPushServerDouble();
    pluginsDir = realPluginsDir(['utility-power-outages', 'delivery-push']);
    await start();
  });
  afterAll(async () => {
    await started?.close();
    await push?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    push.reset();
    await knex()('notification_delivery_ledger').delete();
  });

  it("publishes the rendered message, and a Restoration shares its NewOutage's sequence id", async () => {
    await servicesOf(started.app).pipeline.processNotificationEvents([event('PO-1')], { awaitDelivery: true });
    await servicesOf(started.app).pipeline.processNotificationEvents([event('PO-1', 'Restoration')], { awaitDelivery: true });
    const [outage, restored] = messages();
    expect(outage).toMatchObject({ topic: 'utility-power-outages', title: 'Power outage: Kandy', priority: 4 });
    expect(restored).toMatchObject({ title: 'Power restored: Kandy', sequence_id: outage.sequence_id });
    expect(outage.sequence_id).toMatch(/^[-_A-Za-z0-9]{1,64}$/);
  });

  it('503 twice, then success: exactly one message, one ledger row, three attempts', async () => {
    push.failNext(2, { status: 503 });
    const result = await servicesOf(started.app).pipeline.processNotificationEvents([event('PO-2')], { awaitDelivery: true });
    expect(result.deliveredCount).toBe(0);
    expect((await ledger())[0]).toMatchObject({ status: 'retrying', attempts: 1 });
    expect((await ledger())[0].last_error).toMatch(/503/);
    await retryNow();
    await retryNow();
    expect((await ledger()).map((row) => [row.status, row.attempts])).toEqual([['delivered', 3]]);
    expect(messages()).toHaveLength(1);
  });

  it('retries a publish that hangs past the timeout', async () => {
    push.delayNext(1, 1500);
    await servicesOf(started.app).pipeline.processNotificationEvents([event('PO-3')], { awaitDelivery: true });
    expect((await ledger())[0]).toMatchObject({ status: 'retrying', attempts: 1 });
    await retryNow();
    expect((await ledger())[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    // The slow server stores the first publish too once its delay ends (no idempotency key in the protocol): both are
    // there, with one sequence id, so the app shows one notification.
    await expect.poll(() => messages().length, { timeout: 10_000 }).toBe(2);
    expect(new Set(messages().map((message) => message.sequence_id)).size).toBe(1);
  });

  it('keeps a pending retry across a restart and delivers it once', async () => {
    push.failNext(1, { status: 503 });
    await servicesOf(started.app).pipeline.processNotificationEvents([event('PO-4')], { awaitDelivery: true });
    expect((await ledger())[0].status).toBe('retrying');
    await started.close();
    await start();
    await retryNow();
    await servicesOf(started.app).dispatcher.drain();
    expect((await ledger()).map((row) => row.status)).toEqual(['delivered']);
    expect(messages()).toHaveLength(1);
  });

  it('records 401 (wrong token) and 403 (no write access) as failed, without retrying or logging the token', async () => {
    await started.close();
    await start('tk_wrongtokenwrongtokenwrongtoke');
    await servicesOf(started.app).pipeline.processNotificationEvents([event('PO-5')], { awaitDelivery: true });
    expect((await ledger())[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await ledger())[0].last_error).toMatch(/401.*40101/);
    await servicesOf(started.app).dispatcher.drain();
    expect((await ledger())[0].attempts).toBe(1);
    expect(started.logs.join('')).not.toContain('tk_wrongtokenwrongtokenwrongtoke');
    await started.close();
    await start('');
    await knex()('notification_delivery_ledger').delete();
    await servicesOf(started.app).pipeline.processNotificationEvents([event('PO-6')], { awaitDelivery: true });
    expect((await ledger())[0].last_error).toMatch(/403.*40301/);
    expect(messages()).toHaveLength(0);
    await started.close();
    await start();
  });
});
