import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { startTestApp, type TestApp, EVERY_INSTALLED_PLUGIN } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

describe.each(await databaseKinds())('health and migrations on %s', (kind) => {
  let database: ProvisionedDatabase;
  let started: TestApp;

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    started = await startTestApp({ pluginsDir: EVERY_INSTALLED_PLUGIN, database, now: () => new Date('2026-11-22T10:00:00Z') });
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });

  it('GET / answers alive', async () => {
    const response = await started.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ service: 'notification-pipeline', status: 'alive' });
    const asClient = await started.app.inject({ method: 'GET', url: '/', headers: { accept: 'application/json' } });
    expect(asClient.json()).toEqual({ service: 'notification-pipeline', status: 'alive' });
  });

  it('GET / from a browser (text/html) leads to the subscribe page', async () => {
    const response = await started.app.inject({
      method: 'GET',
      url: '/',
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/subscribe');
  });

  it('GET /health answers OK with a UTC time written with +00:00', async () => {
    const response = await started.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ Status: 'OK', Time: '2026-11-22T10:00:00.000+00:00' });
  });

  it('GET /health/ready answers 200 once migrated and loaded', async () => {
    const response = await started.app.inject({ method: 'GET', url: '/health/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', plugins: 'ok' } });
  });

  it('applied the core tables with the ledger uniqueness', async () => {
    const knex = servicesOf(started.app).database.knex;
    for (const table of ['notification_subscriptions', 'notification_delivery_ledger', 'notification_events', 'worker_leases']) {
      expect(await knex.schema.hasTable(table)).toBe(true);
    }
    const { rows } = await knex.raw(
      "SELECT indexdef FROM pg_indexes WHERE tablename = 'notification_delivery_ledger' AND indexname = 'notification_delivery_ledger_once'",
    );
    expect(rows[0].indexdef).toMatch(/UNIQUE .*\(subscription_id, source_key, event_type\)/);
  });

  it('unknown routes answer a JSON 404', async () => {
    const response = await started.app.inject({ method: 'GET', url: '/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});

describe.runIf((await databaseKinds()).includes('postgres'))('two instances starting together on an empty PostgreSQL database', () => {
  it('both start, and the migrations are applied once', async () => {
    const database = await provisionDatabase('postgres', { empty: true });
    try {
      const [a, b] = await Promise.all([
        startTestApp({ pluginsDir: EVERY_INSTALLED_PLUGIN, database }),
        startTestApp({ pluginsDir: EVERY_INSTALLED_PLUGIN, database }),
      ]);
      const knex = servicesOf(a.app).database.knex;
      const { rows } = await knex.raw('SELECT name, count(*)::int AS n FROM knex_migrations GROUP BY name');
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row: { n: number }) => row.n === 1)).toBe(true);
      for (const started of [a, b]) expect((await started.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
      await Promise.all([a.close(), b.close()]);
    } finally {
      await database.drop();
    }
  });
});
