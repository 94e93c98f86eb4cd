import { describe, expect, it } from 'vitest';
import {
  addDays,
  assertTimeZone,
  dateRangeLabel,
  isInLocalHour,
  isIsoDate,
  isValidTimeZone,
  isoWeek,
  localHoursOn,
  localParts,
  longDateLabel,
  skippedHoursBefore,
  weekdayOf,
} from './local-time.ts';

const at = (iso: string) => new Date(iso);

describe('isValidTimeZone / assertTimeZone', () => {
  it.each([
    ['UTC', true],
    ['Europe/London', true],
    ['Asia/Colombo', true],
    ['America/New_York', true],
    ['Asia/Kathmandu', true],
    ['', false],
    ['   ', false],
    ['Mars/Base', false],
    ['Europe/Londn', false],
    ['not a zone', false],
  ])('%j → %s', (zone, valid) => {
    expect(isValidTimeZone(zone)).toBe(valid);
    if (valid) expect(() => assertTimeZone(zone)).not.toThrow();
    else expect(() => assertTimeZone(zone)).toThrow(/Invalid IANA time zone/);
  });

  it('localParts rejects an unknown zone with a clear message, and an invalid Date', () => {
    expect(() => localParts(at('2026-11-22T00:00:00Z'), 'Mars/Base')).toThrow(/Invalid IANA time zone "Mars\/Base"/);
    expect(() => localParts(new Date(Number.NaN), 'UTC')).toThrow(/valid Date/);
  });
});

describe('localParts', () => {
  it.each([
    // [instant, zone, date, hour, minute, weekday]
    ['2026-11-22T06:00:00Z', 'UTC', '2026-11-22', 6, 0, 'Sunday'],
    ['2026-11-22T23:59:59Z', 'UTC', '2026-11-22', 23, 59, 'Sunday'],
    // Asia/Colombo is +05:30 all year: local 06:00 is 00:30 UTC.
    ['2026-11-22T00:30:00Z', 'Asia/Colombo', '2026-11-22', 6, 0, 'Sunday'],
    // Local date ahead of the UTC date: 18:45 UTC on the 21st is 00:15 on the 22nd in Colombo.
    ['2026-11-21T18:45:00Z', 'Asia/Colombo', '2026-11-22', 0, 15, 'Sunday'],
    ['2026-11-21T18:29:59Z', 'Asia/Colombo', '2026-11-21', 23, 59, 'Saturday'],
    // +05:45.
    ['2026-11-22T00:15:00Z', 'Asia/Kathmandu', '2026-11-22', 6, 0, 'Sunday'],
    // America/New_York: EST (−5) in November, EDT (−4) in July; local date behind the UTC date at night.
    ['2026-11-23T11:00:00Z', 'America/New_York', '2026-11-23', 6, 0, 'Monday'],
    ['2026-07-06T10:00:00Z', 'America/New_York', '2026-07-06', 6, 0, 'Monday'],
    ['2026-11-23T03:30:00Z', 'America/New_York', '2026-11-22', 22, 30, 'Sunday'],
    // Europe/London around the 2026 changes.
    ['2026-03-29T00:59:00Z', 'Europe/London', '2026-03-29', 0, 59, 'Sunday'],
    ['2026-03-29T01:00:00Z', 'Europe/London', '2026-03-29', 2, 0, 'Sunday'],
    ['2026-10-25T00:30:00Z', 'Europe/London', '2026-10-25', 1, 30, 'Sunday'],
    ['2026-10-25T01:30:00Z', 'Europe/London', '2026-10-25', 1, 30, 'Sunday'],
    ['2026-10-25T02:00:00Z', 'Europe/London', '2026-10-25', 2, 0, 'Sunday'],
    // Midnight is hour 0, never 24 (hourCycle h23).
    ['2026-11-22T00:00:00Z', 'UTC', '2026-11-22', 0, 0, 'Sunday'],
    ['2026-11-21T18:30:00Z', 'Asia/Colombo', '2026-11-22', 0, 0, 'Sunday'],
  ] as const)('%s in %s → %s %i:%i %s', (instant, zone, date, hour, minute, weekday) => {
    const parts = localParts(at(instant), zone);
    expect(parts).toMatchObject({ date, hour, minute, weekday });
  });

  it('keeps the seconds', () => {
    expect(localParts(at('2026-11-22T06:07:08.900Z'), 'Asia/Colombo')).toEqual({ date: '2026-11-22', hour: 11, minute: 37, second: 8, weekday: 'Sunday' });
  });
});

describe('calendar arithmetic', () => {
  it.each([
    ['2026-11-22', 0, '2026-11-22'],
    ['2026-11-22', 1, '2026-11-23'],
    ['2026-11-22', 6, '2026-11-28'],
    ['2026-11-30', 1, '2026-12-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2027-01-01', -1, '2026-12-31'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2027-02-28', 1, '2027-03-01'],
    ['2026-03-28', 1, '2026-03-29'], // across a DST change: calendar days, not 24-hour steps in a zone
    ['2026-10-25', 1, '2026-10-26'],
  ])('addDays(%s, %i) → %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it('rejects invalid dates and fractional days', () => {
    expect(() => addDays('2026-02-30', 1)).toThrow(/Invalid date/);
    expect(() => addDays('22/11/2026', 1)).toThrow(/Invalid date/);
    expect(() => addDays('2026-11-22', 0.5)).toThrow(/whole number/);
  });

  it.each([
    ['2026-11-22', true],
    ['2028-02-29', true],
    ['2027-02-29', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
    ['2026-11-22T00:00', false],
    ['', false],
  ])('isIsoDate(%j) → %s', (value, expected) => {
    expect(isIsoDate(value)).toBe(expected);
  });

  it.each([
    ['2026-11-22', 'Sunday'],
    ['2026-11-23', 'Monday'],
    ['2026-12-31', 'Thursday'],
    ['2027-01-01', 'Friday'],
    ['2028-02-29', 'Tuesday'],
  ])('weekdayOf(%s) → %s', (date, weekday) => {
    expect(weekdayOf(date)).toBe(weekday);
  });
});

describe('isoWeek', () => {
  it.each([
    ['2026-01-01', '2026-W01'], // a Thursday: 2026 has 53 ISO weeks
    ['2025-12-29', '2026-W01'], // Monday of 2026-W01, still in calendar 2025
    ['2025-12-28', '2025-W52'],
    ['2026-11-22', '2026-W47'], // Sunday: last day of W47
    ['2026-11-23', '2026-W48'], // Monday: first day of W48
    ['2026-11-29', '2026-W48'],
    ['2026-12-28', '2026-W53'],
    ['2026-12-31', '2026-W53'],
    ['2027-01-01', '2026-W53'], // calendar 2027, ISO year 2026
    ['2027-01-03', '2026-W53'],
    ['2027-01-04', '2027-W01'],
    ['2024-12-30', '2025-W01'],
    ['2021-01-03', '2020-W53'],
    ['2020-12-31', '2020-W53'],
    ['2026-03-02', '2026-W10'], // zero-padded
  ])('%s → %s', (date, week) => {
    expect(isoWeek(date)).toBe(week);
  });
});

describe('DST gaps: skippedHoursBefore, isInLocalHour, localHoursOn', () => {
  it.each([
    // [instant, zone, skipped hours of the current local date]
    ['2026-11-22T06:30:00Z', 'UTC', []],
    ['2026-03-29T00:30:00Z', 'Europe/London', []], // 00:30 GMT
    ['2026-03-29T01:00:00Z', 'Europe/London', [1]], // 02:00 BST, just after the gap
    ['2026-03-29T01:59:59Z', 'Europe/London', [1]], // 02:59 BST
    ['2026-03-29T02:00:00Z', 'Europe/London', []], // 03:00 BST: the previous hour existed
    ['2026-10-25T00:30:00Z', 'Europe/London', []], // 01:30 BST, first time
    ['2026-10-25T01:30:00Z', 'Europe/London', []], // 01:30 GMT, second time: a repeat is no skip
    ['2026-03-08T07:15:00Z', 'America/New_York', [2]], // 03:15 EDT
    ['2026-03-08T05:30:00Z', 'America/Havana', [0]], // 01:30 CDT: midnight itself was skipped
    ['2026-09-06T04:10:00Z', 'America/Santiago', [0]], // 01:10 −03: the gap spans midnight
    ['2026-11-22T00:50:00Z', 'Asia/Kathmandu', []],
  ])('%s in %s skipped %j', (instant, zone, skipped) => {
    expect(skippedHoursBefore(at(instant), zone)).toEqual(skipped);
  });

  it.each([
    ['2026-03-29', 'Europe/London', 23, [1]],
    ['2026-10-25', 'Europe/London', 24, []],
    ['2026-03-08', 'America/New_York', 23, [2]],
    ['2026-03-08', 'America/Havana', 23, [0]],
    ['2026-11-22', 'Asia/Colombo', 24, []],
  ])('localHoursOn(%s, %s) has %i hours, missing %j', (date, zone, count, missing) => {
    const hours = localHoursOn(date, zone);
    expect(hours).toHaveLength(count);
    expect(Array.from({ length: 24 }, (_, h) => h).filter((h) => !hours.includes(h))).toEqual(missing);
  });

  // Property: over every 10-minute instant of a local day, isInLocalHour(H) holds
  // exactly in the first local hour >= H that exists on that date.
  it.each([
    ['2026-03-29', 'Europe/London'],
    ['2026-10-25', 'Europe/London'],
    ['2026-03-08', 'America/New_York'],
    ['2026-11-01', 'America/New_York'],
    ['2026-03-08', 'America/Havana'],
    ['2026-09-06', 'America/Santiago'],
    ['2026-10-04', 'Australia/Lord_Howe'], // a 30-minute gap: no whole hour is skipped
    ['2026-11-22', 'Asia/Colombo'],
    ['2026-11-22', 'UTC'],
  ])('on %s in %s the configured hour fires in the first existing hour at or after it', (date, zone) => {
    const existing = localHoursOn(date, zone);
    const midnight = Date.parse(`${date}T00:00:00Z`);
    for (let ms = midnight - 15 * 3_600_000; ms <= midnight + 39 * 3_600_000; ms += 10 * 60_000) {
      const now = new Date(ms);
      const local = localParts(now, zone);
      if (local.date !== date) continue;
      for (let hour = 0; hour < 24; hour++) {
        const firing = existing.find((h) => h >= hour);
        expect(isInLocalHour(now, zone, hour), `${now.toISOString()} local ${local.hour}:${local.minute} H=${hour}`).toBe(local.hour === firing);
      }
    }
  });
});

describe('labels', () => {
  it.each([
    ['2026-11-22', 'Sunday 22 November 2026'],
    ['2026-11-24', 'Tuesday 24 November 2026'],
    ['2027-01-01', 'Friday 1 January 2027'],
  ])('longDateLabel(%s) → %s', (date, label) => {
    expect(longDateLabel(date)).toBe(label);
  });

  it.each([
    ['2026-11-23', '2026-11-29', '23–29 November 2026'],
    ['2026-11-30', '2026-12-06', '30 November – 6 December 2026'],
    ['2026-12-28', '2027-01-03', '28 December 2026 – 3 January 2027'],
  ])('dateRangeLabel(%s, %s) → %s', (from, to, label) => {
    expect(dateRangeLabel(from, to)).toBe(label);
  });
});
