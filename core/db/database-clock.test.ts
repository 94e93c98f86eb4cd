import { afterEach, describe, expect, it, vi } from 'vitest';
import { DatabaseClock } from './database-clock.ts';

describe('DatabaseClock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads the host's clock plus its measured distance from the database's, half the round trip taken as the database's moment", async () => {
    vi.useFakeTimers({ now: new Date('2026-11-28T10:00:00Z') });
    const clock = new DatabaseClock();
    // The host runs 5 minutes ahead: the database says 09:55:00.1 after a 200 ms round trip.
    const offset = await clock.sync(async () => {
      vi.advanceTimersByTime(100);
      const databaseNow = new Date('2026-11-28T09:55:00.100Z');
      vi.advanceTimersByTime(100);
      return databaseNow;
    });
    expect(offset).toBe(-300_000);
    expect(clock.now().toISOString()).toBe('2026-11-28T09:55:00.200Z');
    vi.advanceTimersByTime(60_000);
    expect(clock.now().toISOString()).toBe('2026-11-28T09:56:00.200Z');
  });

  it('keeps the last distance when a measurement fails, and starts at none', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-28T10:00:00Z') });
    const clock = new DatabaseClock();
    expect(clock.now().toISOString()).toBe('2026-11-28T10:00:00.000Z');
    await clock.sync(async () => new Date('2026-11-28T10:00:30Z'));
    await expect(clock.sync(async () => Promise.reject(new Error('connection refused')))).rejects.toThrow('connection refused');
    expect(clock.offsetMs).toBe(30_000);
  });
});
