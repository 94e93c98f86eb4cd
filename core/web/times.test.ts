import { describe, expect, it } from 'vitest';
import { clockTime, dateTime } from './static/times.js';

describe('times on the pages', () => {
  const instant = new Date('2026-11-22T05:05:00Z');
  it.each([
    ['Asia/Colombo', '10:35 GMT+5:30', '22 Nov 2026, 10:35 GMT+5:30'],
    ['UTC', '05:05 UTC', '22 Nov 2026, 05:05 UTC'],
    ['America/New_York', '00:05 GMT-5', '22 Nov 2026, 00:05 GMT-5'],
  ])("in %s: %s, %s (24-hour, the zone shown, whatever the browser's zone)", (zone, clock, full) => {
    expect(clockTime(instant, zone)).toBe(clock);
    expect(dateTime(instant, zone)).toBe(full);
  });
});
