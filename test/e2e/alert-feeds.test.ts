import type { FastifyInstance } from 'fastify';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capSchemaErrors, parseCap, referencesOf, type ParsedCapAlert } from '../helpers/cap-validation.ts';
import { startOutageFeedsApp, type OutageFeedsApp } from '../helpers/outage-feeds-app.ts';
import { servicesOf } from '../../core/app.ts';

const BASE = 'https://alerts.example.org';
const POWER_ATOM = '/api/notification-feeds/utility.power-outages/atom.xml';
const PLANNED_ATOM = '/api/notification-feeds/utility.scheduled-outages/atom.xml';
const outage = (id: string, feeder: string, areas: string[], timeRestored: string | null = null) => ({
  id,
  feeder,
  areas,
  timeOff: '2026-11-22T08:15:00+05:30',
  timeRestored,
  cause: 'Fallen line',
  customersAffected: 1200,
});
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

interface AtomText {
  '#text': string;
  '@_type': string;
}
interface AtomEntry {
  id: string;
  title: string;
  updated: string;
  content: string;
  link: Array<{ '@_rel'?: string; '@_type'?: string; '@_href': string }>;
}
/** What a reader shows of an Atom text construct of type="html": the markup decoded, line breaks as newlines. */
const htmlText = (node: AtomText) => {
  expect(node['@_type']).toBe('html');
  return node['#text']
    .replace(/<br\/>\n?/g, '\n')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
};
const atomParser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => name === 'entry' || name === 'link' });
function parseAtom(xml: string): { id: string; title: string; updated: string; entries: AtomEntry[] } {
  type Raw = Omit<AtomEntry, 'title' | 'content'> & { title: AtomText; content: AtomText };
  const { feed } = atomParser.parse(xml) as { feed: { '@_xmlns': string; id: string; title: string; updated: string; entry?: Raw[] } };
  expect(feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
  const entries = (feed.entry ?? []).map((entry) => ({ ...entry, title: htmlText(entry.title), content: htmlText(entry.content) }));
  return { id: feed.id, title: feed.title, updated: feed.updated, entries };
}
const capLinkOf = (entry: AtomEntry) => entry.link.find((link) => link['@_type'] === 'application/cap+xml');

describe('alert feeds: Atom per feed and CAP 1.2 per event', () => {
  let service: OutageFeedsApp;
  let app: FastifyInstance;

  const get = (url: string, headers: Record<string, string> = {}) => service.get(url, headers);
  const atom = async (url: string) => parseAtom((await get(url)).body);
  /** Fetches a CAP document by the absolute URL an Atom entry gives, and checks it against the schema. */
  const capAt = async (href: string): Promise<{ xml: string; alert: ParsedCapAlert }> => {
    expect(href.startsWith(`${BASE}/api/notification-events/`)).toBe(true);
    const response = await get(href.slice(BASE.length));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/cap+xml; charset=utf-8');
    expect(await capSchemaErrors(response.body)).toEqual([]);
    return { xml: response.body, alert: parseCap(response.body) };
  };
  /** The alert a references triple names, found through the identifier (`<feed>-<event id>`), checked to be that alert. */
  const referenced = async (triple: { sender: string; identifier: string; sent: string }) => {
    const { alert } = await capAt(`${BASE}/api/notification-events/${triple.identifier.split('-').at(-1)}/cap.xml`);
    expect([alert.sender, alert.identifier, alert.sent]).toEqual([triple.sender, triple.identifier, triple.sent]);
    return alert;
  };

  beforeAll(async () => {
    service = await startOutageFeedsApp(
      {
        PublicBaseUrl: BASE,
        PowerOutages__Enabled: 'true',
        PowerOutages__PollingIntervalSeconds: '3600',
        ScheduledOutages__Enabled: 'true',
        ScheduledOutages__PollingIntervalSeconds: '3600',
        ScheduledOutages__TimeZone: 'Asia/Colombo',
        NotificationPipeline__CooldownSeconds: '0',
      },
      () => new Date('2026-11-22T04:00:00Z'),
    );
    const { feed, poll } = service;
    app = service.app;
    feed.setPowerOutages([outage('PO-1', 'F12', ['Kandy', 'Peradeniya']), outage('PO-2', 'F7', ['Galle'])]);
    await poll('utility-power-outages.monitor');
    feed.setPowerOutages([outage('PO-1', 'F12', ['Kandy', 'Peradeniya'], '2026-11-22T10:40:00+05:30'), outage('PO-2', 'F7', ['Galle'])]);
    await poll('utility-power-outages.monitor');
    feed.setScheduledOutages([planned()]);
    await poll('utility-scheduled-outages.monitor');
    feed.setScheduledOutages([planned({ end: '18:00' })]);
    await poll('utility-scheduled-outages.monitor');
    feed.setScheduledOutages([planned({ end: '18:00', status: 'cancelled' })]);
    await poll('utility-scheduled-outages.monitor');
  });
  afterAll(async () => {
    await service?.close();
  });

  it("lists a feed's events newest first, each linking its CAP document", async () => {
    const response = await get(POWER_ATOM);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    const parsed = parseAtom(response.body);
    expect(parsed).toMatchObject({ id: `${BASE}${POWER_ATOM}`, title: 'Power outages' });
    expect(parsed.entries.map((entry) => entry.title)).toEqual(['Power restored: Kandy, Peradeniya', 'Power outage: Galle', 'Power outage: Kandy, Peradeniya']);
    for (const entry of parsed.entries) {
      expect(entry.id).toMatch(/^tag:alerts\.example\.org,\d{4}-\d{2}-\d{2}:notification-events\/\d+$/);
      expect(Number.isNaN(Date.parse(entry.updated))).toBe(false);
      expect(capLinkOf(entry)).toMatchObject({ '@_rel': 'alternate', '@_type': 'application/cap+xml' });
    }
    expect(parsed.entries[1].content).toContain('Feeder: F7\nAreas: Galle');
    expect(parsed.updated).toBe(parsed.entries[0].updated);
  });

  it('gives a Restoration as a CAP Update that references its NewOutage, valid against the schema along the chain', async () => {
    const [restoration, , newOutage] = (await atom(POWER_ATOM)).entries;
    const { alert } = await capAt(capLinkOf(restoration)!['@_href']);
    expect(alert).toMatchObject({ sender: 'alerts.example.org', status: 'Actual', msgType: 'Update', scope: 'Public' });
    expect(alert.info).toMatchObject({
      category: 'Infra',
      event: 'Power outage',
      urgency: 'Past',
      severity: 'Minor',
      certainty: 'Observed',
      headline: 'Power restored: Kandy, Peradeniya',
    });
    expect(alert.info.area.areaDesc).toBe('Kandy, Peradeniya');
    expect(alert.info.onset).toBe('2026-11-22T02:45:00-00:00');
    const refs = referencesOf(alert);
    expect(refs).toHaveLength(1);
    const original = await referenced(refs[0]);
    expect(original).toMatchObject({
      msgType: 'Alert',
      info: { urgency: 'Immediate', severity: 'Moderate', certainty: 'Observed', headline: 'Power outage: Kandy, Peradeniya' },
    });
    expect(original.references).toBeUndefined();
    expect((await capAt(capLinkOf(newOutage)!['@_href'])).alert.identifier).toBe(original.identifier);
  });

  it('threads a planned outage: Updated updates its NewEntry, Cancelled cancels both', async () => {
    const entries = (await atom(PLANNED_ATOM)).entries;
    expect(entries.map((entry) => entry.title)).toEqual([
      'Planned outage cancelled: Gampola',
      'Planned outage changed: Gampola',
      'Planned outage Tue, 24 Nov 2026: Gampola',
    ]);
    const [cancelled, updated, created] = await Promise.all(entries.map(async (entry) => (await capAt(capLinkOf(entry)!['@_href'])).alert));
    expect([created.msgType, updated.msgType, cancelled.msgType]).toEqual(['Alert', 'Update', 'Cancel']);
    expect(created.info).toMatchObject({
      event: 'Planned power outage',
      urgency: 'Future',
      severity: 'Minor',
      certainty: 'Likely',
      onset: '2026-11-24T03:30:00-00:00',
      expires: '2026-11-24T11:30:00-00:00',
    });
    expect(updated.info.expires).toBe('2026-11-24T12:30:00-00:00');
    expect(cancelled.info).toMatchObject({ urgency: 'Past', certainty: 'Unlikely' });
    expect(referencesOf(updated).map((ref) => ref.identifier)).toEqual([created.identifier]);
    expect(referencesOf(cancelled).map((ref) => ref.identifier)).toEqual([created.identifier, updated.identifier]);
    for (const ref of referencesOf(cancelled)) await referenced(ref);
  });

  it('filters entries by areas and feeders as subscriptions match', async () => {
    expect((await atom(`${POWER_ATOM}?areas=galle`)).entries.map((entry) => entry.title)).toEqual(['Power outage: Galle']);
    expect((await atom(`${POWER_ATOM}?feeders=F12`)).entries).toHaveLength(2);
    const filtered = await get(`${POWER_ATOM}?feeders=F12&areas=Kandy`);
    expect(parseAtom(filtered.body).id).toBe(`${BASE}${POWER_ATOM}?areas=Kandy&feeders=F12`);
  });

  it('never publishes a private Test event, and lists an event stored twice once', async () => {
    const { publicId, manageToken } = await service.subscribe('utility.power-outages', {}, 'Mine');
    const test = await app.inject({
      method: 'POST',
      url: `/api/notification-subscriptions/${publicId}/test`,
      headers: { 'x-subscription-token': manageToken },
    });
    expect(test.statusCode).toBe(202);
    const [testEvent] = await servicesOf(app).database.knex('notification_events').where('event_type', 'Test').pluck('id');
    expect((await get(`/api/notification-events/${testEvent}/cap.xml`)).statusCode).toBe(404);
    const announcement = {
      feedId: 'utility.power-outages',
      eventType: 'ManualAnnouncement',
      sourceKey: 'announcement-twice',
      fields: { feeders: '', areas: '', title: 'Planned maintenance window', message: 'Tonight.' },
      sourcePayload: { title: 'Planned maintenance window', message: 'Tonight.', areas: [], feeders: [] },
    };
    await servicesOf(app).pipeline.processNotificationEvents([announcement]);
    await servicesOf(app).pipeline.processNotificationEvents([announcement]); // handed over again: a second row, one announcement
    const ids = await servicesOf(app).database.knex('notification_events').where('source_key', 'announcement-twice').orderBy('id').pluck('id');
    expect(ids).toHaveLength(2);
    const titles = (await atom(POWER_ATOM)).entries.map((entry) => entry.title);
    expect(titles).not.toContain('Test notification: Mine');
    expect(titles.filter((title) => title === 'Planned maintenance window')).toHaveLength(1);
    const [first, second] = await Promise.all(ids.map(async (id) => (await capAt(`${BASE}/api/notification-events/${id}/cap.xml`)).alert));
    expect(second.identifier).toBe(first.identifier);
    expect(first.info).toMatchObject({
      event: 'Utility announcement',
      urgency: 'Unknown',
      severity: 'Unknown',
      certainty: 'Unknown',
      area: { areaDesc: 'All areas' },
    });
  });

  it('keeps the latest 50 events, and answers 304 to a current copy', async () => {
    const many = Array.from({ length: 55 }, (_, i) => ({
      feedId: 'utility.power-outages',
      eventType: 'ManualAnnouncement',
      sourceKey: `announcement-${i}`,
      fields: { feeders: '', areas: 'Matara', title: `Notice ${i}`, message: 'm' },
      sourcePayload: { title: `Notice ${i}`, message: 'm', areas: ['Matara'], feeders: [] },
    }));
    await servicesOf(app).pipeline.processNotificationEvents(many);
    const response = await get(POWER_ATOM);
    const titles = parseAtom(response.body).entries.map((entry) => entry.title);
    expect(titles).toHaveLength(50);
    expect([titles[0], titles[49]]).toEqual(['Notice 54', 'Notice 5']);
    expect((await get(POWER_ATOM, { 'if-none-match': String(response.headers.etag) })).statusCode).toBe(304);
    expect((await get(POWER_ATOM, { 'if-modified-since': String(response.headers['last-modified']) })).statusCode).toBe(304);
    const capPath = capLinkOf(parseAtom(response.body).entries[0])!['@_href'].slice(BASE.length);
    const cap = await get(capPath);
    expect(cap.headers['cache-control']).toBe('public, max-age=300');
    expect((await get(capPath, { 'if-none-match': String(cap.headers.etag) })).statusCode).toBe(304);
  });

  it.each([
    ['a bad event id', '/api/notification-events/abc/cap.xml', 400, /params\/eventId/],
    ['an event id of 0', '/api/notification-events/0/cap.xml', 400, /params\/eventId/],
    ['an event id beyond any id', '/api/notification-events/12345678901234567890/cap.xml', 400, /params\/eventId/],
    ['an unknown event', '/api/notification-events/999999999/cap.xml', 404, /eventId/],
    ['a bad feed id', '/api/notification-feeds/Bad%20Feed/atom.xml', 400, /params\/feedId/],
    ['an unknown feed', '/api/notification-feeds/no.such-feed/atom.xml', 404, /no\.such-feed/],
    ['a control character in feeders', `${POWER_ATOM}?feeders=F1%07`, 400, /querystring\/feeders/],
  ])('refuses %s with a clear error, never a 500', async (_name, url, status, message) => {
    const response = await get(url);
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json().message).toMatch(message);
  });
});
