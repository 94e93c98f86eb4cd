import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { parseWithIcalJs, parseWithNodeIcal } from '../helpers/ics-parsers.ts';
import { startOutageFeedsApp, type OutageFeedsApp } from '../helpers/outage-feeds-app.ts';
import { loadUpcoming } from '../../plugins/utility-scheduled-outages/scheduled-store.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const MONITOR = 'utility-scheduled-outages.monitor';
const CALENDAR = '/api/notification-feeds/utility.scheduled-outages/calendar.ics';
const planned = (patch: Record<string, unknown> = {}) => ({
  id: 'SO-77',
  date: '2026-11-24',
  start: '09:00',
  end: '17:00',
  feeder: 'F3',
  areas: ['Gampola'],
  reason: 'Maintenance',
  status: 'scheduled',
  ...patch,
});
const kandy = planned({ id: 'SO-80', date: '2026-11-26', feeder: 'F9', areas: ['Kandy', 'Peradeniya'] });
const uidsOf = (text: string) => parseWithIcalJs(text).events.map((event) => event.uid);

describe('the calendar of planned outages (ICS), in Asia/Colombo (+05:30)', () => {
  let service: OutageFeedsApp;
  let app: FastifyInstance;
  let feed: UtilityFeedDouble;
  let started: TestApp;
  let clock = new Date('2026-11-22T04:00:00Z'); // Sunday 09:30 in Colombo, outside every digest hour
  let subscription: { publicId: string; manageToken: string };
  let powerSubscription: { publicId: string; manageToken: string };

  const poll = () => service.poll(MONITOR);
  const get = (url: string, headers: Record<string, string> = {}) => service.get(url, headers);

  beforeAll(async () => {
    service = await startOutageFeedsApp(
      {
        PublicBaseUrl: 'https://alerts.example.org/',
        ScheduledOutages__Enabled: 'true',
        ScheduledOutages__PollingIntervalSeconds: '3600',
        ScheduledOutages__TimeZone: 'Asia/Colombo',
      },
      () => clock,
    );
    ({ app, feed, started } = service);
    subscription = await service.subscribe('utility.scheduled-outages', { locationKeywords: ['gampola'], eventTypes: ['Cancelled'] }, 'Home in Gampola');
    powerSubscription = await service.subscribe('utility.power-outages', {}, 'Power');
    feed.setScheduledOutages([planned(), kandy]);
    await poll();
  });
  afterAll(async () => {
    await service?.close();
  });

  it("serves every planned outage as text/calendar, times in the feed's zone, readable by ical.js and node-ical alike", async () => {
    const response = await get(CALENDAR);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(response.headers['last-modified']).toBe(new Date('2026-11-22T04:00:00Z').toUTCString());
    const { events, name } = parseWithIcalJs(response.body);
    expect(name).toBe('Scheduled outages');
    expect(events.map((e) => [e.uid, e.tzid, e.utcOffsetSeconds, e.start.toISOString(), e.end.toISOString(), e.sequence, e.status, e.summary])).toEqual([
      [
        'SO-77@alerts.example.org',
        'Asia/Colombo',
        19_800,
        '2026-11-24T03:30:00.000Z',
        '2026-11-24T11:30:00.000Z',
        0,
        'CONFIRMED',
        'Planned power outage: Gampola',
      ],
      [
        'SO-80@alerts.example.org',
        'Asia/Colombo',
        19_800,
        '2026-11-26T03:30:00.000Z',
        '2026-11-26T11:30:00.000Z',
        0,
        'CONFIRMED',
        'Planned power outage: Kandy, Peradeniya',
      ],
    ]);
    expect(events[1]).toMatchObject({ location: 'Kandy, Peradeniya', description: 'Reason: Maintenance\nFeeder: F9' });
    const imported = parseWithNodeIcal(response.body);
    expect(imported.map((e) => [e.uid, e.start.toISOString(), e.start.tz, e.summary])).toEqual([
      ['SO-77@alerts.example.org', '2026-11-24T03:30:00.000Z', 'Asia/Colombo', 'Planned power outage: Gampola'],
      ['SO-80@alerts.example.org', '2026-11-26T03:30:00.000Z', 'Asia/Colombo', 'Planned power outage: Kandy, Peradeniya'],
    ]);
  });

  it('filters by areas and feeders as subscriptions match, and gives one subscription its own calendar with its manage token', async () => {
    expect(uidsOf((await get(`${CALENDAR}?areas=GAMPOLA`)).body)).toEqual(['SO-77@alerts.example.org']);
    expect(uidsOf((await get(`${CALENDAR}?areas=perad,nowhere`)).body)).toEqual(['SO-80@alerts.example.org']);
    expect(uidsOf((await get(`${CALENDAR}?feeders=f9`)).body)).toEqual(['SO-80@alerts.example.org']);
    expect(uidsOf((await get(`${CALENDAR}?feeders=F9&areas=Gampola`)).body)).toEqual([]);
    const own = await get(`/api/notification-subscriptions/${subscription.publicId}/calendar.ics?token=${encodeURIComponent(subscription.manageToken)}`);
    expect(own.statusCode).toBe(200);
    expect(own.headers['cache-control']).toBe('private, max-age=60');
    // Its eventTypes (Cancelled only) narrow deliveries, not the outages it wants in a calendar.
    const parsed = parseWithIcalJs(own.body);
    expect([parsed.name, parsed.events.map((e) => e.uid)]).toEqual(['Scheduled outages: Home in Gampola', ['SO-77@alerts.example.org']]);
    expect(started.logs.join('\n')).not.toContain(subscription.manageToken);
  });

  it('answers 304 to a client whose copy is current (If-None-Match wins over If-Modified-Since), and HEAD without a body', async () => {
    const first = await get(CALENDAR);
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers['last-modified']);
    const again = await get(CALENDAR, { 'if-none-match': etag });
    expect([again.statusCode, again.body, again.headers.etag, again.headers['cache-control']]).toEqual([304, '', etag, 'public, max-age=60']);
    expect((await get(CALENDAR, { 'if-modified-since': lastModified })).statusCode).toBe(304);
    expect((await get(CALENDAR, { 'if-none-match': '"stale"', 'if-modified-since': lastModified })).statusCode).toBe(200);
    expect((await get(`${CALENDAR}?areas=Gampola`, { 'if-none-match': etag })).statusCode).toBe(200); // another filter, another document
    const head = await app.inject({ method: 'HEAD', url: CALENDAR });
    expect([head.statusCode, head.body, head.headers.etag]).toEqual([200, '', etag]);
  });

  it('raises SEQUENCE on every change, keeps the UID, and changes the ETag', async () => {
    const before = await get(CALENDAR);
    clock = new Date('2026-11-22T05:00:00Z');
    feed.setScheduledOutages([planned({ end: '18:00' }), kandy]);
    await poll();
    const changed = await get(CALENDAR, { 'if-none-match': String(before.headers.etag) });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers['last-modified']).toBe(clock.toUTCString());
    let [so77] = parseWithIcalJs(changed.body).events;
    expect([so77.uid, so77.sequence, so77.end.toISOString()]).toEqual(['SO-77@alerts.example.org', 1, '2026-11-24T12:30:00.000Z']);
    // A new reason announces nothing, but the calendar shows it: still a new SEQUENCE.
    feed.setScheduledOutages([planned({ end: '18:00', reason: 'Transformer replacement' }), kandy]);
    await poll();
    [so77] = parseWithIcalJs((await get(CALENDAR)).body).events;
    expect([so77.sequence, so77.description]).toEqual([2, 'Reason: Transformer replacement\nFeeder: F3']);
    const [imported] = parseWithNodeIcal((await get(CALENDAR)).body);
    expect([Number(imported.sequence), imported.end!.toISOString()]).toEqual([2, '2026-11-24T12:30:00.000Z']);
  });

  it('shows a cancellation as STATUS:CANCELLED with a higher SEQUENCE, keeps it 7 days, and drops what the feed stopped listing', async () => {
    const far = planned({ id: 'SO-99', date: '2026-12-30', areas: ['Galle'], feeder: 'F1' });
    feed.setScheduledOutages([planned({ end: '18:00', reason: 'Transformer replacement' }), kandy, far]);
    await poll();
    clock = new Date('2026-11-22T06:00:00Z'); // 11:30 on the 22nd in Colombo
    feed.setScheduledOutages([planned({ end: '18:00', reason: 'Transformer replacement', status: 'cancelled' }), { ...far, status: 'cancelled' }]); // SO-80 vanishes
    await poll();
    const text = (await get(CALENDAR)).body;
    expect(parseWithIcalJs(text).events.map((e) => [e.uid, e.status, e.sequence, e.summary])).toEqual([
      ['SO-77@alerts.example.org', 'CANCELLED', 3, 'Cancelled: Planned power outage: Gampola'],
      ['SO-99@alerts.example.org', 'CANCELLED', 1, 'Cancelled: Planned power outage: Galle'],
    ]);
    expect(parseWithNodeIcal(text).map((e) => [e.uid, e.status])).toEqual([
      ['SO-77@alerts.example.org', 'CANCELLED'],
      ['SO-99@alerts.example.org', 'CANCELLED'],
    ]);
    clock = new Date('2026-11-29T18:00:00Z'); // 23:30 on the 29th in Colombo: 7 days after the day of the cancellation
    expect(uidsOf((await get(CALENDAR)).body)).toEqual(['SO-99@alerts.example.org']); // SO-77's day has passed
    clock = new Date('2026-11-29T18:31:00Z'); // 00:01 on the 30th: 8 days, gone
    const later = await get(CALENDAR);
    expect(uidsOf(later.body)).toEqual([]);
    expect(later.headers['last-modified']).toBe(new Date('2026-11-29T18:30:00Z').toUTCString()); // the window moved at local midnight
  });

  it.each([
    ['a feed id that cannot be one', '/api/notification-feeds/Not%20A%20Feed/calendar.ics', 400, /params\/feedId/],
    ['an unknown feed', '/api/notification-feeds/no.such-feed/calendar.ics', 404, /no\.such-feed/],
    ['a feed without a calendar', '/api/notification-feeds/utility.power-outages/calendar.ics', 404, /utility\.power-outages publishes no calendar/],
    ['a NUL in areas', `${CALENDAR}?areas=Kan%00dy`, 400, /querystring\/areas/],
    ['a repeated areas parameter', `${CALENDAR}?areas=a&areas=b`, 400, /querystring\/areas/],
    ['more than 50 areas', `${CALENDAR}?areas=${Array.from({ length: 51 }, (_, i) => `a${i}`).join(',')}`, 400, /querystring\/areas.*50/],
    ['no manage token', '/api/notification-subscriptions/SUBSCRIPTION/calendar.ics', 401, /querystring\/token/],
    ['a wrong manage token', '/api/notification-subscriptions/SUBSCRIPTION/calendar.ics?token=wrong', 403, /token/],
    ['an unknown subscription', '/api/notification-subscriptions/nope/calendar.ics?token=x', 404, /nope/],
    ['a subscription id that cannot be one', '/api/notification-subscriptions/not%20an%20id/calendar.ics?token=x', 400, /params\/publicId/],
    [
      'a subscription to a feed without a calendar',
      '/api/notification-subscriptions/POWER/calendar.ics?token=POWER_TOKEN',
      404,
      /utility\.power-outages publishes no calendar/,
    ],
  ])('refuses %s with a clear error, never a 500', async (_name, url, status, message) => {
    const response = await get(
      url
        .replace('SUBSCRIPTION', subscription.publicId)
        .replace('POWER_TOKEN', encodeURIComponent(powerSubscription.manageToken))
        .replace('POWER', powerSubscription.publicId),
    );
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json().message).toMatch(message);
  });
});

describe('a feed whose list of planned outages becomes empty', () => {
  let service: OutageFeedsApp;
  let clock = new Date('2026-11-22T04:00:00Z');

  beforeAll(async () => {
    service = await startOutageFeedsApp(
      {
        PublicBaseUrl: 'https://alerts.example.org/',
        ScheduledOutages__Enabled: 'true',
        ScheduledOutages__PollingIntervalSeconds: '3600',
        ScheduledOutages__TimeZone: 'Asia/Colombo',
      },
      () => clock,
    );
  });
  afterAll(async () => {
    await service?.close();
  });

  it('withdraws every outage it listed from the calendar and from the digests, as when one of several vanishes', async () => {
    service.feed.setScheduledOutages([planned(), kandy]);
    await service.poll(MONITOR);
    expect(uidsOf((await service.get(CALENDAR)).body)).toEqual(['SO-77@alerts.example.org', 'SO-80@alerts.example.org']);
    const knex = servicesOf(service.app).database.knex;
    expect((await loadUpcoming(knex, '2026-11-22', '2026-11-30')).map((item) => item.id)).toEqual(['SO-77', 'SO-80']);

    clock = new Date('2026-11-22T05:00:00Z');
    service.feed.setScheduledOutages([]);
    await service.poll(MONITOR);
    const emptied = await service.get(CALENDAR);
    expect(uidsOf(emptied.body)).toEqual([]);
    // The calendar changed with that poll, so a client's cached copy is not confirmed with a 304.
    expect(emptied.headers['last-modified']).toBe(clock.toUTCString());
    expect(await loadUpcoming(knex, '2026-11-22', '2026-11-30')).toEqual([]);
  });
});
