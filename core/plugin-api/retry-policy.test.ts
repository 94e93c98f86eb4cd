import { describe, expect, it } from 'vitest';
import { nextAttemptAt } from './retry-policy.ts';

const now = new Date('2026-11-22T10:00:00Z');
const seconds = (date: Date | null) => (date ? (date.getTime() - now.getTime()) / 1000 : null);

describe('nextAttemptAt', () => {
  it.each([
    [1, 0.5, 5],
    [2, 0.5, 10],
    [3, 0.5, 20],
    [1, 0, 4],
    [1, 1, 6],
    [20, 0.5, null],
  ])('attempt %i with random %f waits %s s', (attempt, random, expected) => {
    expect(seconds(nextAttemptAt(attempt, now, random, { baseSeconds: 5, maxSeconds: 3600, maxAttempts: 10 }))).toBe(expected);
  });

  it('caps the wait', () => {
    expect(seconds(nextAttemptAt(9, now, 0.5, { baseSeconds: 5, maxSeconds: 60, maxAttempts: 10 }))).toBe(60);
  });

  it('honours a later notBefore (a daily quota) and ignores an earlier one', () => {
    const tomorrow = new Date('2026-11-23T00:00:00Z');
    expect(nextAttemptAt(1, now, 0.5, undefined, tomorrow)).toEqual(tomorrow);
    expect(seconds(nextAttemptAt(1, now, 0.5, undefined, new Date(now.getTime() + 1000)))).toBe(5);
  });
});
