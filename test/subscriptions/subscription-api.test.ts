import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { jwtFor, pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const SECRET = 'test-jwt-secret-0123456789abcdef';
const bearer = (claims: Record<string, unknown>) => ({ authorization: `Bearer ${jwtFor(SECRET, claims)}` });
const URL_BASE = '/api/notification-subscriptions';
const push = (extra: Record<string, unknown> = {}) => ({
  displayName: 'Kandy alerts',
  feedId: 'utility.power-outages',
  filter: { locationKeywords: ['Kandy'] },
  delivery: { provider: 'Push' },
  ...extra,
});

describe('subscription API', () => {
  let database: ProvisionedDatabase;
  let started: TestApp;
  let app: FastifyInstance;
  const knex = () => servicesOf(app).database.knex;
  const count = async () => Number((await knex()('notification_subscriptions').count({ n: '*' }))[0].n);
  const create = (payload: unknown, options: Partial<InjectOptions> = {}) =>
    app.inject({ method: 'POST', url: URL_BASE, payload: payload as object, remoteAddress: '198.51.100.1', ...options });

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    started = await startTestApp({
      database,
      pluginsDir: pipelinePluginsDir(),
      workers: false,
      env: {
        Jwt__Secret: SECRET,
        SubscriptionLimits__MaxPerIp: '50',
        SubscriptionLimits__MaxPerIpPerDay: '50',
        SubscriptionLimits__MaxSubscriptionsPerUser: '50',
        NotificationPipeline__CooldownSeconds: '300',
      },
    });
    app = started.app;
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await knex()('notification_subscriptions').delete();
    await knex()('subscription_rate_counters').delete();
  });

  describe('create', () => {
    it('creates an anonymous Push subscription with a generated topic, active at once', async () => {
      const response = await create(push());
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toMatchObject({
        displayName: 'Kandy alerts',
        feedId: 'utility.power-outages',
        filter: { locationKeywords: ['Kandy'] },
        delivery: { provider: 'Push' },
        scope: 'Anonymous',
        isActive: true,
      });
      expect(body.delivery.destination).toMatch(/^fx-[-_A-Za-z0-9]{22}$/);
      expect(body.subscribeUrl).toBe(`http://push.invalid/${body.delivery.destination}`);
      expect(body.subscribeUrlUnavailableReason).toBeNull();
      expect(body.publicId).toMatch(/^[-_A-Za-z0-9]{22}$/);
      expect(body.manageToken).toMatch(/^[-_A-Za-z0-9]{43}$/);
      expect(new Date(body.createdAt).toString()).not.toBe('Invalid Date');
      const row = await knex()('notification_subscriptions').where({ public_id: body.publicId }).first();
      expect(row.manage_token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(body.manageToken);
    });

    it('starts an Email subscription inactive and queues its verification in the same transaction', async () => {
      const response = await create(push({ delivery: { provider: 'Email', destination: 'Reader@Example.org' } }));
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ isActive: false, subscribeUrl: null, delivery: { provider: 'Email', destination: 'reader@example.org' } });
      // The fixture target gives no reason of its own: core says why there is no link.
      expect(response.json().subscribeUrlUnavailableReason).toBe('Email subscriptions have no subscribe link.');
      expect(await knex()('fixture_email_outbox').where({ kind: 'verification' }).pluck('recipient')).toContain('reader@example.org');
    });

    it("marks a subscription made with a user token as the user's", async () => {
      const response = await create(push(), { headers: bearer({ sub: 'user-1' }) });
      expect(response.json().scope).toBe('User');
      expect((await knex()('notification_subscriptions').first()).owner_user_id).toBe('user-1');
    });

    it.each([
      ['a missing displayName', { ...push(), displayName: undefined }, /body must have required property 'displayName'/],
      ['a blank displayName', push({ displayName: '   ' }), /body\/displayName must not be blank/],
      ['an unknown feed', push({ feedId: 'utility.water' }), /body\/feedId: unknown feed "utility.water"/],
      [
        'an event type the feed does not emit',
        push({ filter: { eventTypes: ['NewEntry'] } }),
        /body\/filter\/eventTypes\/0: "NewEntry" is not an event type of utility.power-outages/,
      ],
      [
        'an unknown filter property',
        push({ filter: { colour: ['red'] } }),
        /body\/filter has an unknown property "colour" \(allowed: feeders, locationKeywords, keywords, eventTypes, places, fields\)/,
      ],
      ['a wrongly typed filter', push({ filter: { feeders: 'F12' } }), /body\/filter\/feeders must be array/],
      ['an unknown provider', push({ delivery: { provider: 'Pigeon' } }), /body\/delivery\/provider/],
      ['a destination for Push', push({ delivery: { provider: 'Push', destination: 'my-topic' } }), /body\/delivery\/destination must be omitted for Push/],
      ['a bad email address', push({ delivery: { provider: 'Email', destination: 'not-an-address' } }), /body\/delivery\/destination must be an email address/],
      ['a missing email address', push({ delivery: { provider: 'Email' } }), /body\/delivery\/destination must be an email address/],
      ['an unknown top-level field', push({ owner: 'me' }), /body has an unknown property "owner"/],
    ])('rejects %s with 400 naming the field, storing nothing', async (_name, payload, message) => {
      const response = await create(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(response.json().message).toMatch(message);
      expect(await count()).toBe(0);
    });

    it('rejects a filter on a field the feed cannot filter by', async () => {
      const dir = pipelinePluginsDir();
      const { cpSync } = await import('node:fs');
      const path = await import('node:path');
      const { fileURLToPath } = await import('node:url');
      cpSync(fileURLToPath(new URL('../fixtures/plugins/fixture-feed', import.meta.url)), path.join(dir, 'fixture-feed'), { recursive: true });
      // A database of its own: an embedded one serves one app at a time, and the suite's app holds it.
      const otherDatabase = await provisionDatabase(database.kind);
      const other = await startTestApp({ database: otherDatabase, pluginsDir: dir, workers: false }).catch(async (error: unknown) => {
        await otherDatabase.drop();
        throw error;
      });
      try {
        const response = await other.app.inject({
          method: 'POST',
          url: URL_BASE,
          payload: { displayName: 'x', feedId: 'fixture.items', filter: { feeders: ['F1'] }, delivery: { provider: 'Push' } },
        });
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toBe('body/filter/feeders: fixture.items cannot be filtered by feeders (its filter fields are keywords)');
      } finally {
        await other.close();
        await otherDatabase.drop();
      }
    });

    it('answers malformed JSON with 400, an oversized body with 413, and stores nothing', async () => {
      const malformed = await create('{"displayName": ', { headers: { 'content-type': 'application/json' } });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ code: 'NP_INVALID_FIELD', message: 'body is not valid JSON: Unexpected end of JSON input' });
      const huge = await create(push({ displayName: 'x'.repeat(20_000) }));
      expect(huge.statusCode).toBe(413);
      expect(await count()).toBe(0);
    });

    it('answers 401 to a bearer token that does not verify', async () => {
      const forged = jwtFor('another-secret-0123456789abcdef', { sub: 'mallory', role: 'admin' });
      const response = await create(push(), { headers: { authorization: `Bearer ${forged}` } });
      expect(response.statusCode).toBe(401);
      expect(await count()).toBe(0);
    });
  });

  describe('read, delete and test', () => {
    let publicId: string;
    let manageToken: string;
    beforeEach(async () => {
      ({ publicId, manageToken } = (await create(push(), { headers: bearer({ sub: 'owner-1' }) })).json());
    });
    const get = (headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: `${URL_BASE}/${publicId}`, headers });

    it.each([
      ['the manage token', () => ({ 'x-subscription-token': manageToken }), 200],
      ['the owner', () => bearer({ sub: 'owner-1' }), 200],
      ['an admin', () => bearer({ sub: 'ops', role: 'admin' }), 200],
      ['no credentials', () => ({}), 401],
      ['a wrong manage token', () => ({ 'x-subscription-token': 'nope' }), 403],
      ['another user', () => bearer({ sub: 'someone-else' }), 403],
    ])('GET with %s answers %i', async (_name, headers, status) => {
      const response = await get(headers());
      expect(response.statusCode).toBe(status);
      if (status === 200) expect(response.json()).toMatchObject({ publicId, scope: 'User', isActive: true });
      if (status === 200) expect(response.json()).not.toHaveProperty('manageToken');
    });

    it('answers 404 for an unknown subscription and 400 for a malformed id', async () => {
      expect((await app.inject({ method: 'GET', url: `${URL_BASE}/unknownsubscription`, headers: { 'x-subscription-token': manageToken } })).statusCode).toBe(
        404,
      );
      expect((await app.inject({ method: 'GET', url: `${URL_BASE}/bad%20id` })).statusCode).toBe(400);
    });

    it('a create carrying a manage token joins its subscription: one token manages both, GET /api/subscribers/me lists them', async () => {
      const joined = await create(push({ displayName: 'Galle too', filter: { locationKeywords: ['Galle'] } }), {
        headers: { 'x-subscription-token': manageToken },
      });
      expect(joined.statusCode).toBe(201);
      expect(joined.json().manageToken).toBe(manageToken);
      const other = joined.json().publicId as string;
      expect((await app.inject({ method: 'GET', url: `${URL_BASE}/${other}`, headers: { 'x-subscription-token': manageToken } })).statusCode).toBe(200);
      const mine = await app.inject({ method: 'GET', url: '/api/subscribers/me', headers: { 'x-subscription-token': manageToken } });
      expect(mine.statusCode).toBe(200);
      expect(mine.json().map((s: { publicId: string; displayName: string }) => [s.publicId, s.displayName])).toEqual([
        [publicId, 'Kandy alerts'],
        [other, 'Galle too'],
      ]);
      // Deleting one leaves the other managed by the token.
      await app.inject({ method: 'DELETE', url: `${URL_BASE}/${publicId}`, headers: { 'x-subscription-token': manageToken } });
      expect(
        (await app.inject({ method: 'GET', url: '/api/subscribers/me', headers: { 'x-subscription-token': manageToken } }))
          .json()
          .map((s: { publicId: string }) => s.publicId),
      ).toEqual([other]);
    });

    it('a token that manages nothing joins nothing (403, nothing stored), and /api/subscribers/me needs a token that manages something', async () => {
      const before = await count();
      const refused = await create(push(), { headers: { 'x-subscription-token': 'not-a-token-of-anything' } });
      expect(refused.statusCode).toBe(403);
      expect(await count()).toBe(before);
      expect((await app.inject({ method: 'GET', url: '/api/subscribers/me' })).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/api/subscribers/me', headers: { 'x-subscription-token': 'not-a-token-of-anything' } })).statusCode).toBe(
        403,
      );
    });

    const patch = (payload: unknown, headers: Record<string, string> = { 'x-subscription-token': manageToken }) =>
      app.inject({ method: 'PATCH', url: `${URL_BASE}/${publicId}`, headers, payload: payload as object });

    it('PATCH changes the name and replaces the filter, checked as a create checks them; the delivery stays', async () => {
      const changed = await patch({ displayName: '  Home  ', filter: { feeders: ['F7'], eventTypes: ['Restoration'] } });
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toMatchObject({
        publicId,
        displayName: 'Home',
        filter: { feeders: ['F7'], eventTypes: ['Restoration'] },
        delivery: { provider: 'Push' },
        isActive: true,
      });
      expect((await get({ 'x-subscription-token': manageToken })).json().filter).toEqual({ feeders: ['F7'], eventTypes: ['Restoration'] });
      expect((await patch({ displayName: 'Only the name' })).json()).toMatchObject({ displayName: 'Only the name', filter: { feeders: ['F7'] } });
      expect((await patch({ displayName: 'By its owner' }, bearer({ sub: 'owner-1' }))).statusCode).toBe(200);
    });

    it('PATCH sets quiet hours and a zone (kept with the subscription, shown back), and {} clears them', async () => {
      const preferences = { quietHours: { start: '22:00', end: '06:30', timeZone: 'Asia/Colombo' }, timeZone: 'Asia/Colombo' };
      const changed = await patch({ preferences });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().preferences).toEqual(preferences);
      expect((await get({ 'x-subscription-token': manageToken })).json().preferences).toEqual(preferences);
      expect((await patch({ preferences: {} })).json().preferences).toEqual({});
    });

    it('GET /api/locales lists the languages, and each is a preferences.language PATCH takes', async () => {
      const locales = (await app.inject({ method: 'GET', url: '/api/locales' })).json();
      expect(locales).toEqual({
        default: 'en',
        locales: [
          { code: 'en', name: 'English' },
          { code: 'si', name: 'සිංහල' },
          { code: 'ta', name: 'தமிழ்' },
          // Outside production, the pseudo-locale that shows what is not translated.
          { code: 'en-XA', name: 'Ƥšéûðö (en-XA)' },
        ],
      });
      for (const { code } of locales.locales) expect((await patch({ preferences: { language: code } })).json().preferences).toEqual({ language: code });
      await patch({ preferences: {} });
    });

    it.each<[string, unknown, Record<string, string> | undefined, number, RegExp]>([
      ['an event type the feed does not emit', { filter: { eventTypes: ['Earthquake'] } }, undefined, 400, /body\/filter\/eventTypes\/0/],
      ['a name of a new line', { displayName: 'a\nb' }, undefined, 400, /body\/displayName/],
      ['the delivery', { delivery: { provider: 'Email', destination: 'x@example.org' } }, undefined, 400, /delivery/],
      [
        'quiet hours in a zone that does not exist',
        { preferences: { quietHours: { start: '22:00', end: '06:00', timeZone: 'Mars/Olympus' } } },
        undefined,
        400,
        /body\/preferences\/quietHours\/timeZone/,
      ],
      [
        'quiet hours that end where they start',
        { preferences: { quietHours: { start: '22:00', end: '22:00' } } },
        undefined,
        400,
        /body\/preferences\/quietHours\/end/,
      ],
      [
        'a quiet-hours time that is no time',
        { preferences: { quietHours: { start: '24:00', end: '06:00' } } },
        undefined,
        400,
        /preferences\/quietHours\/start/,
      ],
      ['a preference there is none of', { preferences: { colour: 'red' } }, undefined, 400, /preferences/],
      ['a language the service does not speak', { preferences: { language: 'xx' } }, undefined, 400, /body\/preferences\/language/],
      ['nothing to change', {}, undefined, 400, /body/],
      ['no credentials', { displayName: 'x' }, {}, 401, /token/],
      ['another user', { displayName: 'x' }, bearer({ sub: 'someone-else' }), 403, /someone else/],
    ])('PATCH refuses %s, changing nothing', async (_name, payload, headers, status, message) => {
      const before = (await get({ 'x-subscription-token': manageToken })).json();
      const response = await patch(payload, headers);
      expect(response.statusCode).toBe(status);
      expect(response.json().message).toMatch(message);
      expect((await get({ 'x-subscription-token': manageToken })).json()).toEqual(before);
    });

    it('DELETE answers 204, then the subscription is gone', async () => {
      expect((await app.inject({ method: 'DELETE', url: `${URL_BASE}/${publicId}` })).statusCode).toBe(401);
      const deleted = await app.inject({ method: 'DELETE', url: `${URL_BASE}/${publicId}`, headers: { 'x-subscription-token': manageToken } });
      expect(deleted.statusCode).toBe(204);
      expect((await get({ 'x-subscription-token': manageToken })).statusCode).toBe(404);
    });

    it('/test delivers a test notification through the pipeline, then 429 inside the cooldown', async () => {
      const test = () => app.inject({ method: 'POST', url: `${URL_BASE}/${publicId}/test`, headers: { 'x-subscription-token': manageToken } });
      const first = await test();
      expect(first.statusCode).toBe(202);
      expect(first.json()).toEqual({ matchedSubscriptionCount: 1, deliveredCount: 1 });
      const [delivered] = await knex()('fixture_push_deliveries').where({ subscription_public_id: publicId });
      expect(delivered).toMatchObject({ event_type: 'Test', title: 'Test notification: Kandy alerts' });
      const ledgerRow = await knex()('notification_delivery_ledger').where({ event_type: 'Test' }).first();
      expect(ledgerRow.status).toBe('delivered');
      const second = await test();
      expect(second.statusCode).toBe(429);
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(290);
      expect((await app.inject({ method: 'POST', url: `${URL_BASE}/${publicId}/test` })).statusCode).toBe(401);
    });

    it("/test names the feed in the subscriber's language", async () => {
      const sinhala = (await create(push({ displayName: 'ගෙදර', preferences: { language: 'si' } }))).json();
      const sent = await app.inject({ method: 'POST', url: `${URL_BASE}/${sinhala.publicId}/test`, headers: { 'x-subscription-token': sinhala.manageToken } });
      expect(sent.statusCode).toBe(202);
      const [delivered] = await knex()('fixture_push_deliveries').where({ subscription_public_id: sinhala.publicId });
      expect(delivered.body).toContain('විදුලි බිඳවැටීම්');
      expect(delivered.body).not.toContain('Power outages');
    });

    it('/test answers 409 for an inactive subscription', async () => {
      const email = (await create(push({ delivery: { provider: 'Email', destination: 'a@example.org' } }))).json();
      const response = await app.inject({ method: 'POST', url: `${URL_BASE}/${email.publicId}/test`, headers: { 'x-subscription-token': email.manageToken } });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toMatch(/not verified yet/);
    });
  });
});
