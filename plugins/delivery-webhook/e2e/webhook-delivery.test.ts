import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../../demo/webhook-inbox/webhook-receiver.ts';
import { databaseKinds, provisionDatabase, type DatabaseKind, type ProvisionedDatabase } from '../../../test/helpers/databases.ts';
import { realPluginsDir } from '../../../test/helpers/e2e-env.ts';
import { servicesOf, startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { newOutage } from '../../../test/helpers/outage-event.ts';

const ENCRYPTION_KEY = 'webhook-encryption-key-0123456789abcdef';

describe.each(await databaseKinds())('delivery-webhook end to end on %s', (kind: DatabaseKind) => {
  let database: ProvisionedDatabase;
  let receiver: WebhookReceiver;
  let harness: TestApp;

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    receiver = await startWebhookReceiver();
    harness = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'delivery-webhook']),
      env: {
        // The test's receiver listens on loopback: listed, as an internal receiver would be.
        Webhook__AllowedHosts: '127.0.0.1',
        Webhook__TimeoutSeconds: '1',
        Webhook__EncryptionKey: ENCRYPTION_KEY,
        SubscriptionLimits__MaxPerIp: '1000',
        SubscriptionLimits__MaxPerIpPerDay: '1000',
      },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await knex()('notification_subscriptions').where({ provider: 'Webhook' }).delete();
  });

  const app = () => harness.app;
  const knex = () => servicesOf(app()).database.knex;
  const ledger = (sourceKey: string) => knex()('notification_delivery_ledger').where({ source_key: sourceKey }).orderBy('id');
  const create = (destination: string) =>
    app().inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'ops', feedId: 'utility.power-outages', delivery: { provider: 'Webhook', destination } },
    });
  const subscribed = async (hook: string) => {
    const response = await create(receiver.hookUrl(hook));
    expect(response.statusCode).toBe(201);
    const body = response.json() as { publicId: string; manageToken: string; webhookSecret: string; isActive: boolean };
    receiver.trust(hook, body.webhookSecret);
    return body;
  };
  const deliver = (id: string) => servicesOf(app()).pipeline.processNotificationEvents([newOutage(id)], { awaitDelivery: true });
  const retryNow = async () => {
    await knex()('notification_delivery_ledger').where({ status: 'retrying' }).update({ next_attempt_at: knex().fn.now() });
    await servicesOf(app()).dispatcher.drain();
  };

  it('answers the signing secret once, keeps it encrypted, and signs every delivery so the standardwebhooks library verifies it', async () => {
    const created = await subscribed('ops-1');
    expect(created.isActive).toBe(true);
    expect(created.webhookSecret).toMatch(/^whsec_/);
    const read = await app().inject({
      method: 'GET',
      url: `/api/notification-subscriptions/${created.publicId}`,
      headers: { 'x-subscription-token': created.manageToken },
    });
    expect(read.body).not.toContain(created.webhookSecret);
    const stored = await knex()('delivery_webhook_secrets').first('secret', 'encrypted');
    expect(stored.encrypted).toBe(true);
    expect(stored.secret).not.toContain(created.webhookSecret.slice(6));

    await deliver('PO-W1');
    const [hook] = receiver.to('ops-1');
    expect(hook!.verified).toBe(true);
    expect(hook!.headers['content-type']).toBe('application/json');
    expect(hook!.headers['webhook-signature']).toMatch(/^v1,/);
    const body = JSON.parse(hook!.body);
    expect(body).toMatchObject({
      type: 'utility.power-outages.NewOutage',
      data: { sourceKey: 'PO-W1', eventType: 'NewOutage', priority: 'High', fields: { feeder: 'F12', areas: 'Kandy' } },
    });
    expect(body.data.title).toMatch(/^Power outage: Kandy/);
    expect(harness.logs.join('')).not.toContain(created.webhookSecret);
  });

  it('retries a 500 with the same webhook-id, and delivers once', async () => {
    await subscribed('ops-2');
    receiver.script('ops-2', { status: 500 });
    await deliver('PO-W2');
    expect((await ledger('PO-W2')).map((row) => [row.status, row.last_error])).toEqual([['retrying', 'receiver 500']]);
    await retryNow();
    expect((await ledger('PO-W2')).map((row) => row.status)).toEqual(['delivered']);
    const ids = receiver.to('ops-2').map((hook) => hook.headers['webhook-id']);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
    expect(receiver.to('ops-2').every((hook) => hook.verified)).toBe(true);
  });

  it('410 stops the subscription; another 4xx fails that delivery only', async () => {
    const gone = await subscribed('ops-3');
    receiver.script('ops-3', { status: 400 });
    await deliver('PO-W3');
    expect((await ledger('PO-W3')).map((row) => [row.status, row.last_error, row.outcome])).toEqual([['failed', 'receiver 400', null]]);
    receiver.script('ops-3', { status: 410 });
    await deliver('PO-W4');
    // The delivery says what the receiver said: its destination is gone, with the status.
    expect((await ledger('PO-W4')).map((row) => [row.status, row.outcome, row.outcome_code])).toEqual([['failed', 'gone', '410']]);
    expect(await knex()('notification_subscriptions').where({ public_id: gone.publicId }).first('is_active')).toEqual({ is_active: false });
  });

  it('refuses destinations that are not public https hosts with a 400 naming the field, storing nothing', async () => {
    for (const destination of [
      'http://hooks.example.org/x',
      'https://127.0.0.2/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/x',
      'https://localhost/x',
      'https://u:p@hooks.example.org/x',
      'https://hooks.example.org:0/x',
      'not a url',
    ]) {
      const response = await create(destination);
      expect(response.statusCode, destination).toBe(400);
      expect(response.json().message).toMatch(/^body\/delivery\/destination/);
    }
    expect(Number((await knex()('notification_subscriptions').where({ provider: 'Webhook' }).count({ n: '*' }))[0].n)).toBe(0);
  });

  it('never connects to a name that resolves to a private address at delivery time (DNS rebinding): the delivery fails, nothing is sent', async () => {
    const created = await subscribed('ops-5');
    // The name now resolves to loopback, which is not listed by name: as if its DNS changed after the check.
    const rebound = receiver.hookUrl('ops-5').replace('127.0.0.1', 'localhost');
    await knex()('notification_subscriptions').where({ public_id: created.publicId }).update({ destination: rebound });
    await deliver('PO-W5');
    expect((await ledger('PO-W5')).map((row) => [row.status, row.last_error])).toEqual([['failed', 'localhost resolves to no public address']]);
    expect(receiver.to('ops-5')).toHaveLength(0);
  });
});
