import { afterEach, describe, expect, it } from 'vitest';
import { parseWithIcalJs, parseWithNodeIcal } from '../../test/helpers/ics-parsers.ts';
import type { CalendarEntry, FeedCalendar } from '../plugin-api/public-views.ts';
import { renderCalendar, type CalendarDocumentOptions } from './ics-document.ts';

const entry = (patch: Partial<CalendarEntry> = {}): CalendarEntry => ({
  id: 'SO-77',
  // 09:00–17:00 in Colombo (+05:30)
  start: new Date('2026-11-24T03:30:00Z'),
  end: new Date('2026-11-24T11:30:00Z'),
  summary: 'Planned power outage: Gampola',
  location: 'Gampola',
  description: 'Reason: Maintenance\nFeeder: F3',
  sequence: 0,
  cancelled: false,
  lastModified: new Date('2026-11-22T04:00:00Z'),
  fields: { feeder: 'F3', area: 'Gampola', areas: 'Gampola' },
  ...patch,
});
const colombo = (entries: CalendarEntry[]): FeedCalendar => ({ timeZone: 'Asia/Colombo', entries, lastModified: null });
const options: CalendarDocumentOptions = { hostname: 'alerts.example.org', name: 'Scheduled outages', filter: {}, refreshSeconds: 3600 };

const hostile = entry({
  id: 'SO-80',
  summary: 'Planned power outage: Kandy, Peradeniya; "Katugastota" \\ upper town — a name long enough to fold past seventy-five octets: ශ්‍රී ලංකා',
  location: 'Kandy, Peradeniya',
  description: 'Reason: Tree trimming; line work\nFeeder: F9',
  start: new Date('2026-11-26T18:30:00Z'), // 00:00 on the 27th in Colombo
  end: new Date('2026-11-27T00:30:00Z'),
  sequence: 3,
  cancelled: true,
  fields: { feeder: 'F9', areas: 'Kandy, Peradeniya' },
});

describe('renderCalendar', () => {
  const originalTz = process.env.TZ;
  afterEach(() => {
    process.env.TZ = originalTz;
  });

  it("is RFC 5545 text: CRLF line ends only, lines folded at 75 octets, text escaped, the feed zone's VTIMEZONE", () => {
    const text = renderCalendar(colombo([entry(), hostile]), options);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(text).toMatch(/\r\n /); // a folded line
    const unfolded = text.replace(/\r\n[ \t]/g, '');
    expect(unfolded).toContain('SUMMARY:Planned power outage: Kandy\\, Peradeniya\\; "Katugastota" \\\\ upper town');
    expect(unfolded).toContain('DESCRIPTION:Reason: Tree trimming\\; line work\\nFeeder: F9');
    expect(unfolded).toContain('BEGIN:VTIMEZONE\r\nTZID:Asia/Colombo');
    expect(unfolded).toContain('DTSTART;TZID=Asia/Colombo:20261124T090000');
    expect(unfolded).toContain('DTEND;TZID=Asia/Colombo:20261124T170000');
    expect(unfolded).toContain('UID:SO-77@alerts.example.org');
    expect(unfolded).toMatch(/DTSTAMP:20261122T040000Z/); // UTC, as RFC 5545 requires
  });

  it('reads back in ical.js with the times of Asia/Colombo (+05:30), the UID, SEQUENCE and STATUS', () => {
    const { events, timezones, name } = parseWithIcalJs(renderCalendar(colombo([entry(), hostile]), options));
    expect(name).toBe('Scheduled outages');
    expect(timezones).toEqual(['Asia/Colombo']);
    const [planned, cancelled] = events;
    expect(planned).toMatchObject({
      uid: 'SO-77@alerts.example.org',
      sequence: 0,
      status: 'CONFIRMED',
      summary: 'Planned power outage: Gampola',
      location: 'Gampola',
      tzid: 'Asia/Colombo',
      utcOffsetSeconds: 19_800,
    });
    expect(planned.start.toISOString()).toBe('2026-11-24T03:30:00.000Z');
    expect(planned.end.toISOString()).toBe('2026-11-24T11:30:00.000Z');
    expect(planned.description).toBe('Reason: Maintenance\nFeeder: F3');
    expect(cancelled).toMatchObject({ uid: 'SO-80@alerts.example.org', sequence: 3, status: 'CANCELLED', location: 'Kandy, Peradeniya' });
    expect(cancelled.summary).toContain('Kandy, Peradeniya; "Katugastota" \\ upper town');
    expect(cancelled.start.toISOString()).toBe('2026-11-26T18:30:00.000Z');
  });

  it('imports into node-ical, a second implementation, with the same instants and text', () => {
    const events = parseWithNodeIcal(renderCalendar(colombo([entry(), hostile]), options));
    expect(events.map((event) => [event.uid, event.start.toISOString(), event.end!.toISOString(), Number(event.sequence), event.status])).toEqual([
      ['SO-77@alerts.example.org', '2026-11-24T03:30:00.000Z', '2026-11-24T11:30:00.000Z', 0, 'CONFIRMED'],
      ['SO-80@alerts.example.org', '2026-11-26T18:30:00.000Z', '2026-11-27T00:30:00.000Z', 3, 'CANCELLED'],
    ]);
    expect(events[0].start.tz).toBe('Asia/Colombo');
    expect(events[1].description).toBe('Reason: Tree trimming; line work\nFeeder: F9');
  });

  it("writes the same bytes whatever the host's own time zone", () => {
    process.env.TZ = 'UTC';
    const inUtc = renderCalendar(colombo([entry(), hostile]), options);
    process.env.TZ = 'America/New_York';
    expect(new Date('2026-11-24T03:30:00Z').toString()).toMatch(/ 22:30:00 GMT-0500/); // the zone switch took effect (a fixed instant, not the clock)
    expect(renderCalendar(colombo([entry(), hostile]), options)).toBe(inUtc);
  });

  it('writes UTC times and no VTIMEZONE for a feed in UTC', () => {
    const text = renderCalendar({ timeZone: 'UTC', entries: [entry()], lastModified: null }, options);
    expect(text).not.toContain('VTIMEZONE');
    expect(text).toContain('DTSTART:20261124T033000Z');
    expect(parseWithIcalJs(text).events[0].start.toISOString()).toBe('2026-11-24T03:30:00.000Z');
  });

  it.each([
    ['no filter', {}, ['SO-77', 'SO-80']],
    ['areas as subscriptions match them: a substring, any case', { locationKeywords: ['PERADEN'] }, ['SO-80']],
    ['feeders equal, any case', { feeders: ['f3'] }, ['SO-77']],
    ['both must match', { feeders: ['F3'], locationKeywords: ['Kandy'] }, []],
    ['any of a list', { locationKeywords: ['nowhere', 'gampola'] }, ['SO-77']],
  ])('filters entries with %s', (_name, filter, ids) => {
    const events = parseWithIcalJs(renderCalendar(colombo([entry(), hostile]), { ...options, filter })).events;
    expect(events.map((event) => event.uid.split('@')[0])).toEqual(ids);
  });

  it('is a function of its input: equal calendars give equal bytes (so an ETag can stand for them)', () => {
    expect(renderCalendar(colombo([entry(), hostile]), options)).toBe(renderCalendar(colombo([entry(), hostile]), options));
    expect(renderCalendar(colombo([entry({ sequence: 1 })]), options)).not.toBe(renderCalendar(colombo([entry()]), options));
  });
});
