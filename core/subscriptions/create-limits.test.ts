import { describe, expect, it } from 'vitest';
import { checkCreateLimits, secondsUntilNextUtcDay } from './create-limits.ts';

const limits = { MaxPerIp: 3, MaxPerIpPerDay: 3, MaxSubscriptionsPerUser: 2 };
const now = new Date('2026-11-22T23:00:00Z');
const anonymous = { kind: 'anonymous' } as const;
const user = { kind: 'user', userId: 'u1', admin: false } as const;

describe('checkCreateLimits', () => {
  it.each([
    ['anonymous under every limit', anonymous, { liveByIp: 2, createdTodayByIp: 2, liveByUser: 0 }, null],
    ['anonymous at the live limit', anonymous, { liveByIp: 3, createdTodayByIp: 0, liveByUser: 0 }, 3600],
    ['anonymous at the daily limit (wait until UTC midnight)', anonymous, { liveByIp: 0, createdTodayByIp: 3, liveByUser: 0 }, 3600],
    ['user under the limit, address limits ignored', user, { liveByIp: 9, createdTodayByIp: 9, liveByUser: 1 }, null],
    ['user at the limit', user, { liveByIp: 0, createdTodayByIp: 0, liveByUser: 2 }, 3600],
  ])('%s', (_name, caller, usage, retryAfter) => {
    const breach = checkCreateLimits(caller, usage, limits, now);
    expect(breach?.retryAfterSeconds ?? null).toBe(retryAfter);
  });

  it('counts the seconds to the next UTC day', () => {
    expect(secondsUntilNextUtcDay(new Date('2026-11-22T00:00:00Z'))).toBe(86400);
    expect(secondsUntilNextUtcDay(new Date('2026-11-22T23:59:59.500Z'))).toBe(1);
  });
});
