import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { jwtFor, pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { rowCounts } from '../helpers/table-state.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const SECRET = 'test-jwt-secret-0123456789abcdef';
const body = { displayName: 'alerts', feedId: 'utility.power-outages', delivery: { provider: 'Push' } };
const URL_BASE = '/api/notification-subscriptions';

describe('subscription limits', () => {
  let database: ProvisionedDatabase;
  let pluginsDir: string;
  let started: TestApp;
  const env = {
    Jwt__Secret: SECRET,
    SubscriptionLimits__MaxPerIp: '2',
    SubscriptionLimits__MaxPerIpPerDay: '3',
    SubscriptionLimits__MaxSubscriptionsPerUser: '2',
  };
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
    expect(over.json().message).toBe('at most 2 subscriptions per address: delete one first (SubscriptionLimits__MaxPerIp)');
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
    expect(over.json().message).toMatch(/\(SubscriptionLimits__MaxPerIpPerDay\)$/);
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
    expect(await servicesOf(started.app).database.knex('notification_subscriptions').where({ created_ip: '203.0.113.31' }).count({ n: '*' })).toEqual([
      { n: 1 },
    ]);
    // An untrusted caller cannot pick its address by sending the header.
    const spoofed = await create('198.51.100.40', { 'x-forwarded-for': '203.0.113.50' });
    expect(spoofed.statusCode).toBe(201);
    expect((await servicesOf(started.app).database.knex('notification_subscriptions').where({ public_id: spoofed.json().publicId }).first()).created_ip).toBe(
      '198.51.100.40',
    );
  });

  it('holds an authenticated user to MaxSubscriptionsPerUser, not to the address limits', async () => {
    const user = { authorization: `Bearer ${jwtFor(SECRET, { sub: 'limited-user' })}` };
    expect((await create('198.51.100.10', user)).statusCode).toBe(201);
    expect((await create('198.51.100.10', user)).statusCode).toBe(201);
    const over = await create('198.51.100.10', user);
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toMatch(/at most 2 subscriptions per user.*\(SubscriptionLimits__MaxSubscriptionsPerUser\)$/);
  });

  const createdIpOf = async (response: { json(): { publicId: string } }) =>
    (await servicesOf(started.app).database.knex('notification_subscriptions').where({ public_id: response.json().publicId }).first()).created_ip;

  it('counts IPv6 clients per /64 prefix, whatever the spelling of the address', async () => {
    expect((await create('2001:db8:1:1::1')).statusCode).toBe(201);
    const second = await create('2001:DB8:1:1:ffff:0:0:2');
    expect(second.statusCode).toBe(201);
    expect(await createdIpOf(second)).toBe('2001:db8:1:1::/64');
    const third = await create('2001:db8:1:1:abcd::3');
    expect(third.statusCode).toBe(429);
    expect(third.json().message).toMatch(/SubscriptionLimits__MaxPerIp\)$/);
    // Another /64 is another client.
    expect((await create('2001:db8:1:2::1')).statusCode).toBe(201);
    // Through the proxy, the same prefix in capitals and in full.
    const viaProxy = (client: string) => create('127.0.0.1', { 'x-forwarded-for': client });
    expect((await viaProxy('2001:DB8:7::1')).statusCode).toBe(201);
    expect((await viaProxy('2001:0db8:0007:0000::9')).statusCode).toBe(201);
    expect((await viaProxy('2001:db8:7::10')).statusCode).toBe(429);
    // An IPv4-mapped IPv6 address is the IPv4 client.
    const mapped = await create('::ffff:198.51.100.60');
    expect(await createdIpOf(mapped)).toBe('198.51.100.60');
  });

  it('ignores X-Forwarded-For entries that are not IP addresses', async () => {
    const viaProxy = (header: string) => create('127.0.0.1', { 'x-forwarded-for': header });
    expect(await createdIpOf(await viaProxy('203.0.113.61, hello'))).toBe('203.0.113.61');
    expect(await createdIpOf(await viaProxy('203.0.113.62, <script>, 127.0.0.1'))).toBe('203.0.113.62');
    // Nothing usable: the socket address counts.
    expect(await createdIpOf(await viaProxy('hello'))).toBe('127.0.0.1');
    expect(await createdIpOf(await viaProxy('x'.repeat(4000)))).toBe('127.0.0.1');
    expect(await createdIpOf(await viaProxy('2001:DB8::1'))).toBe('2001:db8::/64');
  });

  const email = (destination: string) => ({ ...body, delivery: { provider: 'Email', destination } });

  it('sends at most MaxVerificationsPerAddressPerDay verification emails to one address, whoever asks', async () => {
    const knex = servicesOf(started.app).database.knex;
    for (const [i, address] of ['victim@example.org', 'Victim@Example.org', 'VICTIM@example.ORG'].entries()) {
      expect((await create(`192.0.2.${10 + i}`, {}, email(address))).statusCode).toBe(201);
    }
    const before = await rowCounts(knex);
    const fromElsewhere = await create('192.0.2.20', {}, email('victim@EXAMPLE.org'));
    expect(fromElsewhere.statusCode).toBe(429);
    expect(fromElsewhere.json().message).toMatch(/\(SubscriptionLimits__MaxVerificationsPerAddressPerDay\)$/);
    const now = new Date();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    expect(Math.abs(Number(fromElsewhere.headers['retry-after']) - (midnight - now.getTime()) / 1000)).toBeLessThan(5);
    const user = { authorization: `Bearer ${jwtFor(SECRET, { sub: 'another-user' })}` };
    expect((await create('192.0.2.21', user, email('victim@example.org'))).statusCode).toBe(429);
    expect(await rowCounts(knex)).toEqual(before);
    // Another address has its own allowance; Push needs no verification.
    expect((await create('192.0.2.22', {}, email('someone-else@example.org'))).statusCode).toBe(201);
  });

  it('in development, loopback callers are not held to the address limits; in production they are', async () => {
    for (let i = 0; i < 4; i += 1) expect((await create('127.0.0.1')).statusCode).toBe(201);
    expect((await create('::1')).statusCode).toBe(201);
    await started.close();
    started = await startTestApp({ database, pluginsDir, workers: false, env: { ...env, NODE_ENV: 'production' } });
    try {
      expect((await create('::1')).statusCode).toBe(201);
      expect((await create('::1')).statusCode).toBe(429);
    } finally {
      await started.close();
      started = await start();
    }
  });
  it('judges creates that arrive together as if each came after the others: the limits hold under concurrency, across instances', async () => {
    // On PostgreSQL a second instance on the same database takes half of the requests.
    const second = database.kind === 'postgres' ? await start() : started;
    try {
      const ip = '198.51.100.140';
      const at = (app: TestApp, remoteAddress: string, payload: object = body) => app.app.inject({ method: 'POST', url: URL_BASE, payload, remoteAddress });
      const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => at(i % 2 === 0 ? started : second, i % 2 === 0 ? ip : `198.51.100.${150 + i}`)));
      const fromIp = answers.filter((_, i) => i % 2 === 0).map((answer) => answer.statusCode);
      expect(fromIp.filter((code) => code === 201)).toHaveLength(2);
      expect(fromIp.filter((code) => code === 429)).toHaveLength(6);
      expect(answers.filter((_, i) => i % 2 === 1).map((answer) => answer.statusCode)).toEqual(Array(8).fill(201));
      const knex = servicesOf(started.app).database.knex;
      const stored = await knex('notification_subscriptions').where({ created_ip: ip }).count<Array<{ count: string }>>('* as count');
      expect(Number(stored[0]!.count)).toBe(2);

      // One destination, many callers at once: MaxVerificationsPerAddressPerDay (3) verification emails, no more.
      const emails = await Promise.all(
        Array.from({ length: 6 }, (_, i) => at(i % 2 === 0 ? started : second, `203.0.113.${70 + i}`, email('together@example.org'))),
      );
      expect(emails.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 201, 429, 429, 429]);
      const verifications = await knex('notification_subscriptions')
        .whereRaw('lower(destination) = ?', ['together@example.org'])
        .count<Array<{ count: string }>>('* as count');
      expect(Number(verifications[0]!.count)).toBe(3);
    } finally {
      if (second !== started) await second.close();
    }
  });
  it('a create whose address another transaction holds waits alone: the creates of other addresses go on', async (context) => {
    // Another session holding the lock needs a second connection: PostgreSQL only (the embedded database has one).
    if (database.kind !== 'postgres') return context.skip();
    const knex = servicesOf(started.app).database.knex;
    const holder = await knex.transaction();
    try {
      await holder.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['subscription-create:ip:198.51.100.200']);
      let blockedAnswered = false;
      const blocked = create('198.51.100.200').then((answer) => {
        blockedAnswered = true;
        return answer;
      });
      // The blocked create is waiting on the lock (not merely not yet arrived) before the others go.
      await expect
        .poll(async () => Number((await holder.raw("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")).rows[0].n))
        .toBeGreaterThan(0);
      const others = await Promise.all([create('198.51.100.201'), create('198.51.100.202')]);
      expect(others.map((answer) => answer.statusCode)).toEqual([201, 201]);
      expect(blockedAnswered).toBe(false);
      await holder.commit();
      expect((await blocked).statusCode).toBe(201);
    } finally {
      if (!holder.isCompleted()) await holder.rollback();
    }
  });
});
