import { describe, expect, it } from 'vitest';
import type { CalendarRow } from './calendar-store.ts';
import { calendarWindow, CANCELLED_KEPT_DAYS, outageInstants, toCalendarEntry } from './calendar-view.ts';

describe('outageInstants', () => {
  it.each([
    ['Colombo (+05:30)', 'Asia/Colombo', { date: '2026-11-24', start: '09:00', end: '17:00' }, '2026-11-24T03:30:00.000Z', '2026-11-24T11:30:00.000Z'],
    ['UTC', 'UTC', { date: '2026-11-24', start: '09:00', end: '17:00' }, '2026-11-24T09:00:00.000Z', '2026-11-24T17:00:00.000Z'],
    [
      'overnight: the end is on the next day',
      'Asia/Colombo',
      { date: '2026-11-24', start: '22:00', end: '02:00' },
      '2026-11-24T16:30:00.000Z',
      '2026-11-24T20:30:00.000Z',
    ],
    [
      'New York in winter (EST, −05:00)',
      'America/New_York',
      { date: '2026-11-24', start: '09:00', end: '10:00' },
      '2026-11-24T14:00:00.000Z',
      '2026-11-24T15:00:00.000Z',
    ],
    [
      'New York in summer (EDT, −04:00)',
      'America/New_York',
      { date: '2026-07-01', start: '09:00', end: '10:00' },
      '2026-07-01T13:00:00.000Z',
      '2026-07-01T14:00:00.000Z',
    ],
    [
      'a start the spring-forward gap skips moves to after it',
      'America/New_York',
      { date: '2026-03-08', start: '02:30', end: '04:00' },
      '2026-03-08T07:30:00.000Z',
      '2026-03-08T08:00:00.000Z',
    ],
  ])('%s', (_name, zone, item, start, end) => {
    const instants = outageInstants(item, zone);
    expect([instants.start.toISOString(), instants.end.toISOString()]).toEqual([start, end]);
  });
});

describe('calendarWindow', () => {
  it.each([
    // [case, now, zone, today, cancelled kept from (local midnight 7 days before)]
    ['UTC', '2026-11-22T10:00:00Z', 'UTC', '2026-11-22', '2026-11-15T00:00:00.000Z'],
    ['Colombo: 20:00 UTC on the 21st is already the 22nd', '2026-11-21T20:00:00Z', 'Asia/Colombo', '2026-11-22', '2026-11-14T18:30:00.000Z'],
    ['Colombo: 18:29 UTC is still the 21st', '2026-11-21T18:29:00Z', 'Asia/Colombo', '2026-11-21', '2026-11-13T18:30:00.000Z'],
  ])('%s', (_name, now, zone, today, since) => {
    const window = calendarWindow(new Date(now), zone);
    expect(window.today).toBe(today);
    expect(window.cancelledSince.toISOString()).toBe(since);
    expect(window.windowStart.getTime() - window.cancelledSince.getTime()).toBe(CANCELLED_KEPT_DAYS * 86_400_000);
  });
});

describe('toCalendarEntry', () => {
  const row: CalendarRow = {
    id: 'SO-77',
    date: '2026-11-24',
    start: '09:00',
    end: '17:00',
    feeder: 'F3',
    areas: ['Gampola', 'Nawalapitiya'],
    reason: 'Maintenance',
    status: 'scheduled',
    sequence: 2,
    changedAt: new Date('2026-11-22T04:00:00Z'),
  };

  it('names the areas in the summary and location, the reason and feeder in the description, and keeps the sequence', () => {
    expect(toCalendarEntry(row, 'Asia/Colombo')).toEqual({
      id: 'SO-77',
      start: new Date('2026-11-24T03:30:00Z'),
      end: new Date('2026-11-24T11:30:00Z'),
      summary: 'Planned power outage: Gampola, Nawalapitiya',
      location: 'Gampola, Nawalapitiya',
      description: 'Reason: Maintenance\nFeeder: F3',
      sequence: 2,
      cancelled: false,
      lastModified: new Date('2026-11-22T04:00:00Z'),
      fields: { feeder: 'F3', areas: 'Gampola, Nawalapitiya', reason: 'Maintenance' },
    });
  });

  it('marks a cancelled outage in its status and its words; an outage without areas is named by its feeder', () => {
    const entry = toCalendarEntry({ ...row, status: 'cancelled', areas: [], reason: null }, 'UTC');
    expect(entry).toMatchObject({ cancelled: true, summary: 'Cancelled: Planned power outage: feeder F3', location: 'feeder F3' });
    expect(entry.description).toBe('The utility cancelled this planned outage.\nReason: not given\nFeeder: F3');
  });
});
