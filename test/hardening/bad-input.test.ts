import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, servicesOf } from '../../core/app.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { jwtFor, pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { rowCounts } from '../helpers/table-state.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const SECRET = 'test-jwt-secret-0123456789abcdef';
const bearer = (claims: Record<string, unknown>) => ({ authorization: `Bearer ${jwtFor(SECRET, claims)}` });
const ADMIN = bearer({ sub: 'ops', role: 'admin' });
const URL_BASE = '/api/notification-subscriptions';
const push = (extra: Record<string, unknown> = {}) => ({ displayName: 'Kandy', feedId: 'utility.power-outages', delivery: { provider: 'Push' }, ...extra });
const announcement = (extra: Record<string, unknown> = {}) => ({ title: 'Storm', message: 'Expect outages tonight.', ...extra });

/**
 * Contracts §3: a NUL character or a lone UTF-16 surrogate anywhere a
 * request carries a string is a 400 naming the field (PostgreSQL text and
 * jsonb refuse both), and admin routes authenticate before they validate.
 */
describe('bad input is a 400 naming the field, never a 500', () => {
  let database: ProvisionedDatabase;
  let started: TestApp;
  let app: FastifyInstance;
  const counts = () => rowCounts(servicesOf(app).database.knex);
  const send = (options: InjectOptions) => app.inject({ remoteAddress: '198.51.100.7', ...options });

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    started = await startTestApp({
      database,
      pluginsDir: pipelinePluginsDir(),
      workers: false,
      env: { Jwt__Secret: SECRET, SubscriptionLimits__MaxPerIp: '100', SubscriptionLimits__MaxPerIpPerDay: '100' },
    });
    app = started.app;
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });

  async function expectRefused(options: InjectOptions, status: number, field: string | RegExp) {
    const before = await counts();
    const response = await send(options);
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json().message).toMatch(field);
    expect(await counts()).toEqual(before);
  }

  it.each([
    ['a NUL in displayName', push({ displayName: 'a\u0000b' }), 'body/displayName'],
    ['a NUL in a feeder', push({ filter: { feeders: ['\u0000'] } }), 'body/filter/feeders/0'],
    ['a lone high surrogate in a keyword', push({ filter: { keywords: ['\ud800'] } }), 'body/filter/keywords/0'],
    ['a lone low surrogate in displayName', push({ displayName: 'x\udc00y' }), 'body/displayName'],
    ['a NUL in a location keyword', push({ filter: { locationKeywords: ['Kandy', 'Gal\u0000le'] } }), 'body/filter/locationKeywords/1'],
  ])('create: %s', async (_name, payload, field) => {
    await expectRefused({ method: 'POST', url: URL_BASE, payload }, 400, field);
  });

  it('keeps a well-formed surrogate pair (an emoji) as it is', async () => {
    const response = await send({ method: 'POST', url: URL_BASE, payload: push({ displayName: 'Home \ud83c\udfe0' }) });
    expect(response.statusCode).toBe(201);
    expect(response.json().displayName).toBe('Home 🏠');
  });

  it.each([
    ['a NUL in the title', announcement({ title: 'a\u0000b' }), 'body/title'],
    ['a lone surrogate in the title', announcement({ title: '\udbff' }), 'body/title'],
    ['a lone surrogate in an area', announcement({ areas: ['Kandy', '\ud800x'] }), 'body/areas/1'],
  ])('announcement (a plugin route): %s', async (_name, payload, field) => {
    await expectRefused({ method: 'POST', url: '/api/admin/announcements', payload, headers: ADMIN }, 400, field);
  });

  it.each([
    ['X-Subscription-Token', 'x-subscription-token'],
    ['X-Forwarded-For', 'x-forwarded-for'],
  ])('a NUL in the %s header is a 400 naming the header', async (_name, header) => {
    await expectRefused({ method: 'POST', url: URL_BASE, payload: push(), headers: { [header]: 'a\u0000b' } }, 400, `headers/${header}`);
    await expectRefused({ method: 'GET', url: `${URL_BASE}/abc`, headers: { [header]: 'a\u0000b' } }, 400, `headers/${header}`);
  });

  it('a NUL in a path parameter is a 400 naming it', async () => {
    await expectRefused({ method: 'GET', url: `${URL_BASE}/a%00b` }, 400, 'params/publicId');
  });

  describe('admin routes authenticate before they validate', () => {
    const url = '/api/admin/announcements';
    it.each([
      ['no token, a bad body', {}, { title: 5 }, 401],
      ['no token, malformed JSON', { 'content-type': 'application/json' }, '{"title":', 401],
      ['no token, a NUL in the body', {}, announcement({ title: '\u0000' }), 401],
      ['a user token, a bad body', bearer({ sub: 'someone' }), { title: 5 }, 403],
      ['an admin token, a bad body', ADMIN, { title: 5 }, 400],
    ])('%s', async (_name, headers, payload, status) => {
      const before = await counts();
      const response = await send({ method: 'POST', url, headers: headers as Record<string, string>, payload: payload as object });
      expect(response.statusCode, response.body).toBe(status);
      expect(await counts()).toEqual(before);
    });
  });

  describe('validation messages say what is allowed', () => {
    it('an unknown filter property is named, with the allowed ones', async () => {
      const response = await send({ method: 'POST', url: URL_BASE, payload: push({ filter: { area: ['Kandy'] } }) });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(
        'body/filter has an unknown property "area" (allowed: feeders, locationKeywords, keywords, eventTypes, places, fields)',
      );
    });

    it('an unknown top-level property is named too', async () => {
      const response = await send({ method: 'POST', url: URL_BASE, payload: push({ owner: 'me' }) });
      expect(response.json().message).toBe('body has an unknown property "owner" (allowed: displayName, feedId, filter, preferences, delivery)');
    });

    it('a value outside an enumeration lists the allowed values', async () => {
      const response = await send({ method: 'POST', url: URL_BASE, payload: push({ delivery: { provider: 'Pigeon' } }) });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^body\/delivery\/provider must be one of: (Push, Email|Email, Push)$/);
    });
  });

  it('the catalog maps each filter property of a create request to the field it filters', async () => {
    const response = await send({ method: 'GET', url: '/api/notification-feeds' });
    const feeds = response.json() as Array<{ id: string; filterableFields: string[]; filterProperties: Record<string, string> }>;
    const power = feeds.find((feed) => feed.id === 'utility.power-outages')!;
    expect(power.filterableFields).toEqual(expect.arrayContaining(['Feeder', 'Area']));
    expect(power.filterProperties).toMatchObject({ feeders: 'Feeder', locationKeywords: 'Area' });
    for (const feed of feeds) {
      expect(Object.values(feed.filterProperties).sort()).toEqual([...feed.filterableFields].sort());
    }
  });

  it('a trusted proxy entry that is no address or range stops the start, naming the key', async () => {
    await expect(buildApp({ env: { Server__TrustedProxies: '127.0.0.1,nginx' } })).rejects.toThrow(
      /Server__TrustedProxies: "nginx" is not an IP address or CIDR range/,
    );
  });
});
