import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../core/app.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { E2E_JWT_SECRET, e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';

const MONITOR = 'utility-power-outages.monitor';
const HOLD_ABOVE = 3;

/**
 * The console's API through HTTP (the real app, feed and push doubles):
 * sign-in, the session cookie, CSRF, the announcement preview against the
 * pipeline's matching, and holding an event above the threshold across a
 * restart. The browser and the identity provider: console-browser.test.ts.
 */
describe('the operator console API', () => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let started: TestApp;
  const env = () =>
    e2eEnv(feed, push, {
      PowerOutages__Enabled: 'true',
      PowerOutages__PollingIntervalSeconds: '3600',
      PublicBaseUrl: 'https://alerts.example.org',
      NotificationPipeline__HoldAboveSubscriptions: String(HOLD_ABOVE),
    });
  const start = async () => {
    started = await startTestApp({ database, pluginsDir: realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push']), env: env() });
    await servicesOf(started.app).workers.runNow(MONITOR);
  };
  const app = () => started.app;
  const knex = () => servicesOf(app()).database.knex;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
    await start();
    for (const [area, n] of [
      ['Kandy', 2],
      ['Galle', 3],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const response = await app().inject({
          method: 'POST',
          url: '/api/notification-subscriptions',
          payload: { displayName: `${area} ${i}`, feedId: 'utility.power-outages', filter: { locationKeywords: [area] }, delivery: { provider: 'Push' } },
        });
        expect(response.statusCode).toBe(201);
      }
    }
  });
  afterAll(async () => {
    await started?.close();
    await Promise.all([feed?.close(), push?.close()]);
    await database?.drop();
  });

  /** Signs in with an admin token; returns the cookie header and the CSRF token to send. */
  async function session(claims: Record<string, unknown> = { sub: 'ops', role: 'admin' }) {
    const signIn = await app().inject({ method: 'POST', url: '/console/api/session', payload: { token: jwtFor(E2E_JWT_SECRET, claims) } });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const cookie = signIn.cookies.find((c) => c.name === 'np_console')!;
    const me = await app().inject({ method: 'GET', url: '/console/api/me', headers: { cookie: `np_console=${encodeURIComponent(cookie.value)}` } });
    // It answers the CSRF token: never kept by a cache.
    expect(me.headers['cache-control']).toBe('no-store');
    // The session cookie as the browser would hold it after /me (which may set it again).
    const latest = me.cookies.find((c) => c.name === 'np_console') ?? cookie;
    return { raw: cookie, cookie: `np_console=${encodeURIComponent(latest.value)}`, csrf: me.json().csrfToken as string, me: me.json() };
  }

  it('a session cookie HttpOnly, SameSite=Lax, Secure behind https, on /console only; nothing without it', async () => {
    const { raw, me } = await session();
    expect(raw).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true, path: '/console' });
    expect(me).toMatchObject({ signedIn: true, actor: 'token:ops' });
    for (const url of ['/console/api/overview', '/console/api/events', '/console/api/audit']) {
      expect((await app().inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
  });

  it('a sign-out ends the session for good: a copy of its cookie signs nobody in', async () => {
    const { cookie, csrf } = await session({ sub: 'leaving', role: 'admin' });
    expect((await app().inject({ method: 'GET', url: '/console/api/overview', headers: { cookie } })).statusCode).toBe(200);
    expect((await app().inject({ method: 'POST', url: '/console/api/logout', headers: { cookie, 'x-csrf-token': csrf } })).statusCode).toBe(200);
    expect((await app().inject({ method: 'GET', url: '/console/api/overview', headers: { cookie } })).statusCode).toBe(401);
    expect((await app().inject({ method: 'GET', url: '/console/api/me', headers: { cookie } })).json()).toMatchObject({ signedIn: false });
  });

  it('refuses a non-admin token, a bad one, and a change without the CSRF token', async () => {
    const user = await app().inject({ method: 'POST', url: '/console/api/session', payload: { token: jwtFor(E2E_JWT_SECRET, { sub: 'someone' }) } });
    expect(user.statusCode).toBe(403);
    expect(user.cookies.find((c) => c.name === 'np_console')).toBeUndefined();
    expect((await knex()('console_audit_log').where({ actor: 'token:someone' }).first())?.action).toBe('sign-in refused');
    expect((await app().inject({ method: 'POST', url: '/console/api/session', payload: { token: 'not-a-token' } })).statusCode).toBe(401);
    const { cookie } = await session();
    const body = { feedId: 'utility.power-outages', title: 'x', message: 'y' };
    const noCsrf = await app().inject({ method: 'POST', url: '/console/api/announcements/preview', headers: { cookie }, payload: body });
    expect(noCsrf.statusCode).toBe(403);
    const wrongCsrf = await app().inject({
      method: 'POST',
      url: '/console/api/announcements/preview',
      headers: { cookie, 'x-csrf-token': 'forged' },
      payload: body,
    });
    expect(wrongCsrf.statusCode).toBe(403);
  });

  it("previews an announcement with the pipeline's own matching, sends nothing until confirmed, then sends to exactly those", async () => {
    const { cookie, csrf } = await session();
    const headers = { cookie, 'x-csrf-token': csrf };
    // The form shows the feed's own filter fields; the announcement names whom it is about by field id.
    const announcers = (await app().inject({ method: 'GET', url: '/console/api/announcers', headers: { cookie } })).json();
    expect(
      announcers
        .find((feed: { id: string }) => feed.id === 'utility.power-outages')
        .filterFields.map((field: { id: string; label: string }) => [field.id, field.label]),
    ).toEqual([
      ['locationKeywords', 'Areas'],
      ['feeders', 'Feeders'],
      ['keywords', 'Keywords'],
    ]);
    const body = { feedId: 'utility.power-outages', title: 'Storm warning', message: 'Expect outages tonight.', fields: { locationKeywords: ['Galle'] } };
    const preview = await app().inject({ method: 'POST', url: '/console/api/announcements/preview', headers, payload: body });
    expect(preview.statusCode, preview.body).toBe(200);
    // As the console sent it before fields (areas), it reaches the same subscriptions; a field the feed lacks is a 400 naming it.
    const older = await app().inject({
      method: 'POST',
      url: '/console/api/announcements/preview',
      headers,
      payload: { ...body, fields: undefined, areas: ['Galle'] },
    });
    expect(older.json()).toEqual(preview.json());
    const unknown = await app().inject({ method: 'POST', url: '/console/api/announcements/preview', headers, payload: { ...body, fields: { route: ['12'] } } });
    expect([unknown.statusCode, unknown.json().message]).toEqual([
      400,
      expect.stringMatching(/^body\/fields\/route: utility.power-outages has no filter field route/),
    ]);
    // The system topic has no filter: it is reached too.
    // Push has no rate and has sent nothing lately: no estimate yet.
    expect(preview.json()).toEqual({ subscriptions: 4, byProvider: { Push: 4 }, estimatedSeconds: { Push: null } });
    expect(push.allMessages().filter((m) => m.title === 'Storm warning')).toHaveLength(0);
    const unconfirmed = await app().inject({ method: 'POST', url: '/console/api/announcements', headers, payload: body });
    expect(unconfirmed.statusCode).toBe(400);
    const sent = await app().inject({ method: 'POST', url: '/console/api/announcements', headers, payload: { ...body, confirm: true } });
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json().matchedSubscriptionCount).toBe(preview.json().subscriptions);
    expect(push.allMessages().filter((m) => m.title === 'Storm warning')).toHaveLength(4);
    const audit = (await app().inject({ method: 'GET', url: '/console/api/audit', headers: { cookie } })).json().entries;
    expect(audit[0]).toMatchObject({
      actor: 'token:ops',
      action: 'announcement sent',
      detail: { feedId: 'utility.power-outages', title: 'Storm warning', Areas: 'Galle' },
    });
  });

  it('holds an event that would reach more than the threshold (nothing delivered), across a restart; released once, by one operator', async () => {
    const before = push.allMessages().length;
    // Every area at once: 2 + 3 subscriptions and the system topic, over the threshold of 3.
    feed.setPowerOutages([{ id: 'PO-STORM', feeder: 'F1', areas: ['Kandy', 'Galle'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null }]);
    await servicesOf(app()).workers.runNow(MONITOR, { force: true });
    await servicesOf(app()).dispatcher.settle();
    expect(push.allMessages().length).toBe(before);
    const [held] = await knex()('notification_events').where({ hold_status: 'held' });
    expect(held).toMatchObject({ event_type: 'NewOutage', source_key: 'PO-STORM', hold_count: 6 });
    expect(started.logs.some((line) => line.includes('event held for an operator'))).toBe(true);

    await started.close();
    await start();
    const { cookie, csrf } = await session({ sub: 'night-shift', role: 'admin' });
    const events = (await app().inject({ method: 'GET', url: '/console/api/events', headers: { cookie } })).json();
    expect(events.held).toEqual([
      expect.objectContaining({ id: String(held.id), hold: { status: 'held', count: 6, byProvider: { Push: 6 }, decidedBy: null }, matched: 0 }),
    ]);

    const headers = { cookie, 'x-csrf-token': csrf };
    const [first, second] = await Promise.all([
      app().inject({ method: 'POST', url: `/console/api/events/${held.id}/release`, headers }),
      app().inject({ method: 'POST', url: `/console/api/events/${held.id}/release`, headers }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    expect([first, second].find((answer) => answer.statusCode === 200)!.json()).toEqual({ released: String(held.id) });
    // An id past 2^53 names no event: never rounded to a neighbour's.
    const beyond = await app().inject({ method: 'POST', url: '/console/api/events/9007199254740993/discard', headers });
    expect(beyond.statusCode).toBe(404);
    expect(beyond.json().detail ?? beyond.json().message).toContain('9007199254740993');
    await expect
      .poll(
        async () => {
          await servicesOf(app()).dispatcher.settle();
          return push.allMessages().filter((m) => m.title === 'Power outage: Kandy, Galle').length;
        },
        { timeout: 20_000 },
      )
      .toBe(6);
    expect((await app().inject({ method: 'POST', url: `/console/api/events/${held.id}/discard`, headers })).statusCode).toBe(409);
    const audit = (await app().inject({ method: 'GET', url: '/console/api/audit', headers: { cookie } })).json().entries;
    expect(audit.filter((entry: { action: string }) => entry.action === 'release held event')).toEqual([
      expect.objectContaining({ actor: 'token:night-shift', detail: { eventId: Number(held.id) } }),
    ]);
  });

  it('a discarded held event is never delivered', async () => {
    const before = push.allMessages().length;
    feed.setPowerOutages([{ id: 'PO-GLITCH', feeder: 'F2', areas: ['Kandy', 'Galle'], timeOff: '2026-11-22T09:15:00+05:30', timeRestored: null }]);
    await servicesOf(app()).workers.runNow(MONITOR, { force: true });
    const [held] = await knex()('notification_events').where({ hold_status: 'held', source_key: 'PO-GLITCH' });
    const { cookie, csrf } = await session();
    const discard = await app().inject({ method: 'POST', url: `/console/api/events/${held.id}/discard`, headers: { cookie, 'x-csrf-token': csrf } });
    expect(discard.statusCode).toBe(200);
    await servicesOf(app()).dispatcher.settle();
    expect(push.allMessages().length).toBe(before);
    expect(await knex()('notification_delivery_ledger').where({ event_id: held.id })).toEqual([]);
  });
});
