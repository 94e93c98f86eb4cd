import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, servicesOf } from '../../core/app.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { startTestApp } from '../helpers/test-app.ts';

const sys = (name: string, feedId: string, topic: string) => ({
  [`NotificationPipeline__SystemSubscriptions__${name}__FeedId`]: feedId,
  [`NotificationPipeline__SystemSubscriptions__${name}__PushTopic`]: topic,
});

describe('system subscriptions', () => {
  let database: ProvisionedDatabase;
  let pluginsDir: string;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    pluginsDir = pipelinePluginsDir();
  });
  afterAll(async () => database?.drop());

  it('stops the start when a system topic fails the topic policy, naming it', async () => {
    const app = await buildApp({ env: { ...database.env, Logging__Level: 'silent', ...sys('Bad', 'utility.power-outages', 'forbidden-topic') }, pluginsDir });
    await expect(app.ready()).rejects.toThrow(/NotificationPipeline__SystemSubscriptions__Bad__PushTopic: Push topic "forbidden-topic" is not allowed/);
    await app.close().catch(() => undefined);
  });

  it('stops the start for an unknown feed id', async () => {
    const app = await buildApp({ env: { ...database.env, Logging__Level: 'silent', ...sys('Odd', 'utility.nothing', 'utility-odd') }, pluginsDir });
    await expect(app.ready()).rejects.toThrow(/NotificationPipeline__SystemSubscriptions__Odd__FeedId: unknown feed "utility.nothing"/);
    await app.close().catch(() => undefined);
  });

  it('upserts env system subscriptions at start, deactivates removed ones, and leaves migration rows alone', async () => {
    const first = await startTestApp({
      database,
      pluginsDir,
      workers: false,
      env: {
        ...sys('PowerOutages', 'utility.power-outages', 'utility-power-outages'),
        ...sys('Planned', 'utility.scheduled-outages', 'utility-scheduled-outages'),
      },
    });
    const knex = servicesOf(first.app).database.knex;
    // What a plugin migration seeding a system subscription inserts.
    await knex('notification_subscriptions').insert({
      public_id: 'seeded-by-migration',
      display_name: 'Seeded',
      feed_id: 'utility.power-outages',
      filter_json: '{}',
      provider: 'Push',
      destination: 'utility-power-outages-ops',
      scope: 'System',
      is_active: true,
      system_name: 'migration:ops',
    });
    const rows = await knex('notification_subscriptions').where({ scope: 'System' }).orderBy('system_name');
    expect(rows.map((row) => [row.system_name, row.feed_id, row.destination, row.is_active, row.filter_json])).toEqual([
      ['env:Planned', 'utility.scheduled-outages', 'utility-scheduled-outages', true, {}],
      ['env:PowerOutages', 'utility.power-outages', 'utility-power-outages', true, {}],
      ['migration:ops', 'utility.power-outages', 'utility-power-outages-ops', true, {}],
    ]);
    const result = await servicesOf(first.app).pipeline.processNotificationEvents(
      [
        {
          feedId: 'utility.power-outages',
          eventType: 'ManualAnnouncement',
          sourceKey: 'a-1',
          fields: {},
          sourcePayload: { title: 'T', message: 'M', areas: [], feeders: [] },
        },
      ],
      { awaitDelivery: true },
    );
    expect(result).toEqual({ matchedSubscriptionCount: 2, deliveredCount: 2, claimedCount: 2, wasSystemDelivery: true });
    await first.close();

    const second = await startTestApp({ database, pluginsDir, workers: false, env: sys('PowerOutages', 'utility.power-outages', 'utility-power-outages') });
    const after = await servicesOf(second.app).database.knex('notification_subscriptions').where({ scope: 'System' }).orderBy('system_name');
    expect(after.map((row) => [row.system_name, row.is_active])).toEqual([
      ['env:Planned', false],
      ['env:PowerOutages', true],
      ['migration:ops', true],
    ]);
    await second.close();
  });

  it('delivers by any installed provider: __Provider and __Destination, checked by that target', async () => {
    const key = 'NotificationPipeline__SystemSubscriptions__Ops';
    const started = await startTestApp({
      database,
      pluginsDir,
      workers: false,
      env: { [`${key}__FeedId`]: 'utility.power-outages', [`${key}__Provider`]: 'Email', [`${key}__Destination`]: 'Ops@Example.org' },
    });
    try {
      const knex = servicesOf(started.app).database.knex;
      const row = await knex('notification_subscriptions').where({ system_name: 'env:Ops' }).first();
      // Active at once: an operator's address needs no confirmation (no verification message is queued either).
      expect([row.provider, row.destination, row.is_active]).toEqual(['Email', 'ops@example.org', true]);
      expect(await knex('fixture_email_outbox').count({ n: '*' }).first()).toEqual({ n: 0 });
      const result = await servicesOf(started.app).pipeline.processNotificationEvents(
        [
          {
            feedId: 'utility.power-outages',
            eventType: 'ManualAnnouncement',
            sourceKey: 'ops-1',
            fields: {},
            sourcePayload: { title: 'T', message: 'M', areas: [], feeders: [] },
          },
        ],
        { awaitDelivery: true },
      );
      expect(result.deliveredCount).toBeGreaterThanOrEqual(1);
      expect(await knex('fixture_email_outbox').where({ recipient: 'ops@example.org', kind: 'notification' }).count({ n: '*' }).first()).toEqual({ n: 1 });
    } finally {
      await started.close();
    }
  });

  it.each([
    [{ Provider: 'Email', PushTopic: 'utility-power-outages' }, /Ops__PushTopic is for Provider Push; for Email set __Destination/],
    [{ Provider: 'Email' }, /Ops: set __Destination \(or __PushTopic for Push\)/],
    [{ Provider: 'Fax', Destination: '+94 11 000' }, /Ops__Destination: no Fax delivery target is installed \(installed: /],
    [{ Provider: 'Email', Destination: 'not an address' }, /Ops__Destination: body\/delivery\/destination must be an email address/],
  ])('stops the start naming the key when the settings %j do not make a destination', async (setting, message) => {
    const key = 'NotificationPipeline__SystemSubscriptions__Ops';
    const env = Object.fromEntries(Object.entries({ FeedId: 'utility.power-outages', ...setting }).map(([name, value]) => [`${key}__${name}`, value]));
    const app = await buildApp({ env: { ...database.env, Logging__Level: 'silent', ...env }, pluginsDir });
    await expect(app.ready()).rejects.toThrow(message);
    await app.close().catch(() => undefined);
  });
});

describe('a service with no delivery target installed', () => {
  it('starts, and answers a create with 400 naming the provider', async () => {
    const database = await provisionDatabase(await preferredKind());
    const { mkdtempSync, cpSync } = await import('node:fs');
    const path = await import('node:path');
    const { tmpRoot } = await import('../helpers/databases.ts');
    const { projectRoot } = await import('../../core/paths.ts');
    const dir = mkdtempSync(path.join(tmpRoot(), 'plugins-'));
    cpSync(path.join(projectRoot, 'plugins', 'utility-power-outages'), path.join(dir, 'utility-power-outages'), { recursive: true });
    const started = await startTestApp({ database, pluginsDir: dir, workers: false });
    try {
      const response = await started.app.inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: { displayName: 'x', feedId: 'utility.power-outages', delivery: { provider: 'Push' } },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('body/delivery/provider: Push is not available');
    } finally {
      await started.close();
      await database.drop();
    }
  });
});
