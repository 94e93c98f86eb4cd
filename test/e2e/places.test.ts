import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../core/app.ts';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { capSchemaErrors, parseCap } from '../helpers/cap-validation.ts';
import { databaseKinds, provisionDatabase, type DatabaseKind, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, E2E_JWT_SECRET, realPluginsDir } from '../helpers/e2e-env.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const MONITOR = 'utility-power-outages.monitor';
// A block of Kandy (about 1.1 km across), with a hole (a substation still fed) in its middle.
const BLOCK = {
  type: 'Polygon',
  coordinates: [
    [
      [80.63, 7.29],
      [80.64, 7.29],
      [80.64, 7.3],
      [80.63, 7.3],
      [80.63, 7.29],
    ],
    [
      [80.634, 7.294],
      [80.636, 7.294],
      [80.636, 7.296],
      [80.634, 7.296],
      [80.634, 7.294],
    ],
  ],
};
const outage = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  feeder: 'F12',
  areas: ['Kandy'],
  timeOff: '2026-11-22T08:15:00+05:30',
  timeRestored: null,
  cause: 'Fallen line',
  customersAffected: 1200,
  ...extra,
});

/**
 * Places end to end: outage shapes from the feed, places in filters, the
 * fan-out through the cell index, the GeoJSON map feed, CAP polygons, the
 * console's announcements to places and the address search, on both
 * databases.
 */
describe.each(await databaseKinds())('places on %s', (kind: DatabaseKind) => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let started: TestApp;
  let app: FastifyInstance;
  let geocoder: http.Server;
  const topics: Record<string, string> = {};

  const poll = async () => {
    await servicesOf(app).workers.runNow(MONITOR, { force: true });
    await servicesOf(app).dispatcher.settle();
  };
  const knex = () => servicesOf(app).database.knex;
  const create = (filter: object, name = 'p') =>
    app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: name, feedId: 'utility.power-outages', filter, delivery: { provider: 'Push' } },
    });
  const subscribe = async (name: string, filter: object) => {
    const response = await create(filter, name);
    expect(response.statusCode, response.body).toBe(201);
    topics[name] = response.json().delivery.destination;
    return response.json() as { publicId: string; manageToken: string };
  };
  const reached = (name: string, id: string) =>
    push.messages(topics[name]!).some((message) => message.title?.includes('Kandy') && message.sequence_id === `po-${id}`);

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
    // A geocoder speaking Nominatim's /search (jsonv2), with two addresses.
    geocoder = http.createServer((req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams.get('q') ?? '';
      const known = q.toLowerCase().includes('temple') ? [{ display_name: 'Temple of the Tooth, Kandy, Sri Lanka', lat: '7.2936', lon: '80.6413' }] : [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(known));
    });
    await new Promise<void>((resolve) => geocoder.listen(0, '127.0.0.1', resolve));
    started = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push']),
      env: e2eEnv(feed, push, {
        PowerOutages__Enabled: 'true',
        PowerOutages__PollingIntervalSeconds: '3600',
        Geocoder__BaseUrl: `http://127.0.0.1:${(geocoder.address() as AddressInfo).port}`,
        Geocoder__RequestsPerSecond: '100',
        NotificationPipeline__FanoutPageSize: '100',
        SubscriptionLimits__MaxPerIp: '1000',
        SubscriptionLimits__MaxPerIpPerDay: '1000',
      }),
    });
    app = started.app;
    await subscribe('inside', { places: [{ name: 'Home', lat: 7.292, lon: 80.632, radiusMeters: 0 }] });
    await subscribe('near', { places: [{ lat: 7.2895, lon: 80.635 }] }); // about 56 m south, default 100 m
    await subscribe('beyond', { places: [{ lat: 7.289, lon: 80.635 }] }); // about 111 m south
    await subscribe('hole', { places: [{ lat: 7.295, lon: 80.635, radiusMeters: 50 }] });
    await subscribe('far', { places: [{ lat: 7.9, lon: 80.635, radiusMeters: 5000 }] });
    await subscribe('named', { places: [{ lat: 7.9, lon: 80.635 }], locationKeywords: ['Kandy'] }); // far away, but its name matches
    await subscribe('wrong-feeder', { places: [{ lat: 7.292, lon: 80.632 }], feeders: ['F1'] });
  });
  afterAll(async () => {
    await started?.close();
    await Promise.all([feed?.close(), push?.close(), new Promise((resolve) => geocoder?.close(resolve))]);
    await database?.drop();
  });

  it('refuses a bad place with a 400 naming the field, storing nothing, on create and on a change', async () => {
    const before = await knex()('notification_subscriptions').count({ n: '*' });
    const cases: Array<[object, RegExp]> = [
      [{ places: [{ lat: 91, lon: 80 }] }, /body\/filter\/places\/0\/lat/],
      [{ places: [{ lat: 7, lon: -181 }] }, /body\/filter\/places\/0\/lon/],
      [{ places: [{ lat: 7, lon: 80, radiusMeters: 5001 }] }, /body\/filter\/places\/0\/radiusMeters/],
      [{ places: [{ lat: 7 }] }, /body\/filter\/places\/0.*lon/],
      [{ places: [{ lat: 7, lon: 80, name: 'x'.repeat(61) }] }, /body\/filter\/places\/0\/name/],
      [{ places: Array.from({ length: 6 }, () => ({ lat: 7, lon: 80 })) }, /body\/filter\/places/],
      [{ places: [{ lat: 7, lon: 80, colour: 'red' }] }, /body\/filter\/places\/0/],
      [{ places: [{ lat: '7', lon: 80 }] }, /body\/filter\/places\/0\/lat/],
    ];
    for (const [filter, field] of cases) {
      const response = await create(filter);
      expect(response.statusCode, JSON.stringify(filter)).toBe(400);
      expect(response.json().message).toMatch(field);
    }
    expect(await knex()('notification_subscriptions').count({ n: '*' })).toEqual(before);
    const mine = await subscribe('changing', { places: [{ lat: 7.1, lon: 80.1 }] });
    const change = await app.inject({
      method: 'PATCH',
      url: `/api/notification-subscriptions/${mine.publicId}`,
      headers: { 'x-subscription-token': mine.manageToken },
      payload: { filter: { places: [{ lat: 7, lon: 200 }] } },
    });
    expect(change.statusCode).toBe(400);
    expect(change.json().message).toMatch(/body\/filter\/places\/0\/lon/);
    expect((await knex()('notification_subscriptions').where({ public_id: mine.publicId }).first('filter_json')).filter_json).toEqual({
      places: [{ lat: 7.1, lon: 80.1 }],
    });
  });

  it('stores a place subscription with the cells of its disk, and a changed place with its new cells', async () => {
    const mine = await subscribe('moving', { places: [{ lat: 7.1, lon: 80.1 }] });
    const cells = async () =>
      ((await knex()('notification_subscriptions').where({ public_id: mine.publicId }).first('place_cells')).place_cells as Array<string | number>).map(String);
    const first = await cells();
    expect(first.length).toBeGreaterThan(0);
    await app.inject({
      method: 'PATCH',
      url: `/api/notification-subscriptions/${mine.publicId}`,
      headers: { 'x-subscription-token': mine.manageToken },
      payload: { filter: { places: [{ lat: 7.29, lon: 80.63 }] } },
    });
    expect(await cells()).not.toEqual(first);
    // With area names too, "where" is either: it is read for every event (no cells).
    await app.inject({
      method: 'PATCH',
      url: `/api/notification-subscriptions/${mine.publicId}`,
      headers: { 'x-subscription-token': mine.manageToken },
      payload: { filter: { places: [{ lat: 7.29, lon: 80.63 }], locationKeywords: ['Galle'] } },
    });
    expect((await knex()('notification_subscriptions').where({ public_id: mine.publicId }).first('place_cells')).place_cells).toBeNull();
    await knex()('notification_subscriptions').where({ public_id: mine.publicId }).delete();
  });

  it('an outage with a shape reaches the places inside it and within their radius, and no other; a name still matches by name', async () => {
    feed.setPowerOutages([outage('PO-SHAPE', { geometry: BLOCK })]);
    await poll();
    expect(reached('inside', 'PO-SHAPE')).toBe(true);
    expect(reached('near', 'PO-SHAPE')).toBe(true);
    expect(reached('beyond', 'PO-SHAPE')).toBe(false);
    expect(reached('hole', 'PO-SHAPE')).toBe(false);
    expect(reached('far', 'PO-SHAPE')).toBe(false);
    expect(reached('named', 'PO-SHAPE')).toBe(true);
    expect(reached('wrong-feeder', 'PO-SHAPE')).toBe(false);
    const [stored] = await knex()('notification_events').where({ source_key: 'PO-SHAPE' }).select('geometry');
    expect(stored.geometry).toEqual(BLOCK);
  });

  it('an outage without a shape reaches no place subscription, only names', async () => {
    feed.setPowerOutages([outage('PO-SHAPE', { geometry: BLOCK }), outage('PO-NOSHAPE')]);
    await poll();
    expect(reached('inside', 'PO-NOSHAPE')).toBe(false);
    expect(reached('named', 'PO-NOSHAPE')).toBe(true);
  });

  it('a bad shape is dropped with a warning naming it (reason geometry); its outage is kept and announced by name', async () => {
    const before = started.logs.length;
    feed.setPowerOutages([
      outage('PO-SHAPE', { geometry: BLOCK }),
      outage('PO-NOSHAPE'),
      outage('PO-BADSHAPE', {
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [80.63, 7.29],
              [80.64, 7.29],
              [80.64, 7.3],
              [80.63, 7.31],
            ],
          ],
        },
      }),
    ]);
    await poll();
    expect(reached('named', 'PO-BADSHAPE')).toBe(true);
    expect(reached('inside', 'PO-BADSHAPE')).toBe(false);
    const warning = started.logs
      .slice(before)
      .map((line) => JSON.parse(line))
      .find((entry) => entry.msg?.startsWith('feed items left out') || entry.msg?.includes('shape'));
    expect(JSON.stringify(warning)).toContain('PO-BADSHAPE: /geometry coordinates/0 is not closed');
    expect(JSON.stringify(warning)).toContain('1 shape dropped (its item kept)');
    const metrics = (await app.inject('/metrics')).body;
    expect(metrics).toMatch(/notification_feed_items_rejected_total\{feed="utility.power-outages",reason="geometry"\} 1/);
  });

  it('publishes the current shapes as GeoJSON, with an ETag and open to any site, and in CAP as polygons', async () => {
    const answer = await app.inject('/api/notification-feeds/utility.power-outages/outages.geojson');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/geo\+json/);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    const collection = answer.json();
    expect(collection.type).toBe('FeatureCollection');
    expect(collection.features).toEqual([
      {
        type: 'Feature',
        id: 'PO-SHAPE',
        geometry: BLOCK,
        properties: {
          feedId: 'utility.power-outages',
          id: 'PO-SHAPE',
          areas: ['Kandy'],
          feeder: 'F12',
          start: '2026-11-22T02:45:00.000Z',
          end: null,
          estimatedEnd: null,
          customersAffected: 1200,
          status: 'ongoing',
        },
      },
    ]);
    const again = await app.inject({
      url: '/api/notification-feeds/utility.power-outages/outages.geojson',
      headers: { 'if-none-match': String(answer.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect((await app.inject('/api/notification-feeds/utility.scheduled-outages/outages.geojson')).json()).toEqual({ type: 'FeatureCollection', features: [] });
    expect((await app.inject('/api/notification-feeds/no.such-feed/outages.geojson')).statusCode).toBe(404);

    const [event] = await knex()('notification_events').where({ source_key: 'PO-SHAPE' }).select('id');
    const cap = await app.inject(`/api/notification-events/${event.id}/cap.xml`);
    expect(cap.statusCode, cap.body).toBe(200);
    expect(await capSchemaErrors(cap.body)).toEqual([]);
    expect((parseCap(cap.body).info.area as { polygon?: string }).polygon).toBe('7.29,80.63 7.29,80.64 7.3,80.64 7.3,80.63 7.29,80.63');
  });

  it("an operator's announcement to places reaches the subscribers near them; a bad place in the preview is a 400 naming it", async () => {
    const signIn = await app.inject({ method: 'POST', url: '/console/api/session', payload: { token: jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' }) } });
    const cookie = `np_console=${encodeURIComponent(signIn.cookies.find((c) => c.name === 'np_console')!.value)}`;
    const csrf = (await app.inject({ method: 'GET', url: '/console/api/me', headers: { cookie } })).json().csrfToken as string;
    const headers = { cookie, 'x-csrf-token': csrf };
    const bad = await app.inject({
      method: 'POST',
      url: '/console/api/announcements/preview',
      headers,
      payload: { feedId: 'utility.power-outages', title: 't', message: 'm', places: [{ lat: 95, lon: 80 }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/body\/places\/0\/lat/);
    const body = {
      feedId: 'utility.power-outages',
      title: 'Crews at the temple',
      message: 'Work near the temple tonight.',
      places: [{ lat: 7.292, lon: 80.632, radiusMeters: 200 }],
    };
    const preview = await app.inject({ method: 'POST', url: '/console/api/announcements/preview', headers, payload: body });
    // Only "inside" has its place within 200 m of the point ("near" is 430 m off, 100 m its radius; "wrong-feeder" asks for a feeder an
    // announcement has not); the system topic (no filter) is reached too.
    expect(preview.json().byProvider).toEqual({ Push: 2 });
    const sent = await app.inject({ method: 'POST', url: '/console/api/announcements', headers, payload: { ...body, confirm: true } });
    expect(sent.statusCode, sent.body).toBe(202);
    await servicesOf(app).dispatcher.settle();
    const got = (name: string) => push.messages(topics[name]!).some((message) => message.title === 'Crews at the temple');
    expect(Object.keys(topics).filter(got)).toEqual(['inside']);
    expect(push.messages('utility-power-outages').some((message) => message.title === 'Crews at the temple')).toBe(true);
  });

  it('searches an address through the geocoder, and says when there is nothing', async () => {
    const found = await app.inject('/api/geocode?q=temple%20of%20the%20tooth');
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual([{ name: 'Temple of the Tooth, Kandy, Sri Lanka', lat: 7.2936, lon: 80.6413 }]);
    expect((await app.inject('/api/geocode?q=nowhere%20road')).json()).toEqual([]);
    expect((await app.inject('/api/geocode?q=ab')).statusCode).toBe(400);
    const settings = (await app.inject('/api/map')).json();
    expect(settings).toMatchObject({ tileUrl: null, geocoder: true, maxPlaces: 5, maxRadiusMeters: 5000, defaultRadiusMeters: 100 });
  });
});
