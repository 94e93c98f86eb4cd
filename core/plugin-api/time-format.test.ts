import { describe, expect, it } from 'vitest';
import { formatClockTime, formatDateTime, formatLocalDate, localInstant, wallClock, zoneName } from './time-format.ts';

describe('time formatting for people', () => {
  it.each([
    ['2026-11-22T02:45:00Z', 'Asia/Colombo', '22 Nov 2026, 08:15 GMT+5:30', '08:15 GMT+5:30', 'GMT+5:30'],
    ['2026-11-22T02:45:00Z', 'UTC', '22 Nov 2026, 02:45 UTC', '02:45 UTC', 'UTC'],
    ['2026-07-01T12:00:00Z', 'Europe/Berlin', '1 Jul 2026, 14:00 CEST', '14:00 CEST', 'CEST'],
    ['2026-12-01T12:00:00Z', 'Europe/Berlin', '1 Dec 2026, 13:00 CET', '13:00 CET', 'CET'],
  ])('%s in %s', (iso, zone, dateTime, clock, name) => {
    expect(formatDateTime(iso, zone)).toBe(dateTime);
    expect(formatClockTime(new Date(iso), zone)).toBe(clock);
    expect(zoneName(iso, zone)).toBe(name);
  });

  it('keeps text that is no date as it was', () => {
    expect(formatDateTime('soon', 'UTC')).toBe('soon');
  });

  it("writes a local date with its weekday, and finds a local time's instant in a zone", () => {
    expect(formatLocalDate('2026-11-24')).toBe('Tue, 24 Nov 2026');
    expect(localInstant('2026-11-24', '09:00', 'Asia/Colombo').toISOString()).toBe('2026-11-24T03:30:00.000Z');
    // 02:30 does not exist on 29 March 2026 in Berlin: it moves forward.
    expect(localInstant('2026-03-29', '02:30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it("writes other languages' words, 24-hour in each", () => {
    expect(formatDateTime('2026-11-22T02:45:00Z', 'Asia/Colombo', 'si')).toMatch(/08[.:]15/);
    expect(formatDateTime('2026-11-22T02:45:00Z', 'Asia/Colombo', 'ta')).toMatch(/08[.:]15/);
  });

  it.each([
    ['Colombo, +5:30', '2026-11-22T02:45:30Z', 'Asia/Colombo', { date: '2026-11-22', hour: 8, minute: 15, second: 30 }],
    ['Kathmandu, +5:45, across midnight', '2026-11-22T18:20:00Z', 'Asia/Kathmandu', { date: '2026-11-23', hour: 0, minute: 5, second: 0 }],
    ['London, the first 01:30 of the night clocks go back', '2026-10-25T00:30:00Z', 'Europe/London', { date: '2026-10-25', hour: 1, minute: 30, second: 0 }],
    ['London, the second 01:30', '2026-10-25T01:30:00Z', 'Europe/London', { date: '2026-10-25', hour: 1, minute: 30, second: 0 }],
    [
      'London, the first minute after clocks go forward (01:00 never shows)',
      '2026-03-29T01:00:00Z',
      'Europe/London',
      { date: '2026-03-29', hour: 2, minute: 0, second: 0 },
    ],
    ['UTC, a year before 1000', '0999-06-01T12:00:00Z', 'UTC', { date: '0999-06-01', hour: 12, minute: 0, second: 0 }],
  ])('wallClock: %s', (_name, iso, zone, shown) => {
    expect(wallClock(new Date(iso), zone)).toEqual(shown);
    expect(wallClock(Date.parse(iso), zone)).toEqual(shown);
  });

  it('wallClock refuses a zone that is none, and an instant that is none', () => {
    expect(() => wallClock(new Date('2026-11-22T00:00:00Z'), 'Not/A_Zone')).toThrow(RangeError);
    expect(() => wallClock(new Date('soon'), 'UTC')).toThrow(RangeError);
  });
});
