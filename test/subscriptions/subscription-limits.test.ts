import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { jwtFor, pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const SECRET = 'test-jwt-secret-0123456789abcdef';
const body = { displayName: 'alerts', feedId: 'utility.power-outages', delivery: { provider: 'Push' } };
const URL_BASE = '/api/notification-subscriptions';

describe('subscription limits (contracts §5)', () => {
  let database: ProvisionedDatabase;
  let pluginsDir: string;
  let started: TestApp;
  const env = { Jwt__Secret: SECRET, SubscriptionLimits__MaxPerIp: '2', SubscriptionLimits__MaxPerIpPerDay: '3', SubscriptionLimits__MaxSubscriptionsPerUser: '2' };
  const start = () => startTestApp({ database, pluginsDir, workers: false, env });
  const create = (remoteAddress: string, headers: Record<string, string> = {}, payload: object = body) =>
    started.app.inject({ method: 'POST', url: URL_BASE, payload, remoteAddress, headers });

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    pluginsDir = pipelinePluginsDir();
    started = await start();
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });

  it('holds an address to MaxPerIp live subscriptions, with Retry-After, across a restart', async () => {
    expect((await create('198.51.100.10')).statusCode).toBe(201);
    // A request that fails validation does not count.
    expect((await create('198.51.100.10', {}, { ...body, feedId: 'nope.nope' })).statusCode).toBe(400);
    expect((await create('198.51.100.10')).statusCode).toBe(201);
    const over = await create('198.51.100.10');
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBe('3600');
    expect(over.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    await started.close();
    started = await start();
    expect((await create('198.51.100.10')).statusCode).toBe(429);
    expect((await create('198.51.100.11')).statusCode).toBe(201);
  });

  it('holds an address to MaxPerIpPerDay creates, even after deleting, until the next UTC day', async () => {
    const ip = '198.51.100.20';
    for (let i = 0; i < 3; i += 1) {
      const created = await create(ip);
      expect(created.statusCode).toBe(201);
      const { publicId, manageToken } = created.json();
      await started.app.inject({ method: 'DELETE', url: `${URL_BASE}/${publicId}`, headers: { 'x-subscription-token': manageToken } });
    }
    const over = await create(ip);
    expect(over.statusCode).toBe(429);
    const retryAfter = Number(over.headers['retry-after']);
    const now = new Date();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    expect(Math.abs(retryAfter - (midnight - now.getTime()) / 1000)).toBeLessThan(5);
  });

  it('honours X-Forwarded-For only from the trusted proxy', async () => {
    const viaProxy = (client: string) => create('127.0.0.1', { 'x-forwarded-for': `203.0.113.99, ${client}` });
    expect((await viaProxy('203.0.113.30')).statusCode).toBe(201);
    expect((await viaProxy('203.0.113.30')).statusCode).toBe(201);
    expect((await viaProxy('203.0.113.30')).statusCode).toBe(429);
    // Another client behind the same proxy has its own allowance.
    expect((await viaProxy('203.0.113.31')).statusCode).toBe(201);
    expect(await started.app.services.database.knex('notification_subscriptions').where({ created_ip: '203.0.113.31' }).count({ n: '*' })).toEqual([{ n: 1 }]);
    // An untrusted caller cannot pick its address by sending the header.
    const spoofed = await create('198.51.100.40', { 'x-forwarded-for': '203.0.113.50' });
    expect(spoofed.statusCode).toBe(201);
    expect((await started.app.services.database.knex('notification_subscriptions').where({ public_id: spoofed.json().publicId }).first()).created_ip).toBe('198.51.100.40');
  });

  it('holds an authenticated user to MaxSubscriptionsPerUser, not to the address limits', async () => {
    const user = { authorization: `Bearer ${jwtFor(SECRET, { sub: 'limited-user' })}` };
    expect((await create('198.51.100.10', user)).statusCode).toBe(201);
    expect((await create('198.51.100.10', user)).statusCode).toBe(201);
    const over = await create('198.51.100.10', user);
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toMatch(/at most 2 subscriptions per user/);
  });
});
