import { describe, expect, it } from 'vitest';
import { addressLimitsApply, checkCreateLimits, secondsUntilNextUtcDay, type CreateContext } from './create-limits.ts';

const limits = { MaxPerIp: 3, MaxPerIpPerDay: 3, MaxSubscriptionsPerUser: 2, MaxVerificationsPerAddressPerDay: 3, Ipv6PrefixLength: 64 };
const now = new Date('2026-11-22T23:00:00Z');
const anonymous = { kind: 'anonymous' } as const;
const user = { kind: 'user', userId: 'u1', admin: false } as const;
const push = (caller: CreateContext['caller'], addressLimits = caller.kind === 'anonymous'): CreateContext => ({ caller, addressLimits, verifies: false });
const email = (caller: CreateContext['caller'], addressLimits = caller.kind === 'anonymous'): CreateContext => ({ caller, addressLimits, verifies: true });
const usage = (counts: Partial<{ liveByIp: number; createdTodayByIp: number; liveByUser: number; verificationsToday: number }>) => ({
  liveByIp: 0,
  createdTodayByIp: 0,
  liveByUser: 0,
  verificationsToday: 0,
  ...counts,
});

describe('checkCreateLimits', () => {
  it.each([
    ['anonymous under every limit', push(anonymous), usage({ liveByIp: 2, createdTodayByIp: 2 }), null],
    ['anonymous at the live limit', push(anonymous), usage({ liveByIp: 3 }), ['MaxPerIp', 3600]],
    ['anonymous at the daily limit (wait until UTC midnight)', push(anonymous), usage({ createdTodayByIp: 3 }), ['MaxPerIpPerDay', 3600]],
    ['anonymous on loopback in development: no address limits', push(anonymous, false), usage({ liveByIp: 9, createdTodayByIp: 9 }), null],
    ['user under the limit, address limits ignored', push(user), usage({ liveByIp: 9, createdTodayByIp: 9, liveByUser: 1 }), null],
    ['user at the limit', push(user), usage({ liveByUser: 2 }), ['MaxSubscriptionsPerUser', 3600]],
    ['an email address under its verification limit', email(anonymous), usage({ verificationsToday: 2 }), null],
    ['an email address at its verification limit', email(anonymous), usage({ verificationsToday: 3 }), ['MaxVerificationsPerAddressPerDay', 3600]],
    ['the verification limit holds for users', email(user), usage({ verificationsToday: 3 }), ['MaxVerificationsPerAddressPerDay', 3600]],
    ['the verification limit holds on loopback in development', email(anonymous, false), usage({ verificationsToday: 3 }), ['MaxVerificationsPerAddressPerDay', 3600]],
    ['push needs no verification', push(anonymous), usage({ verificationsToday: 30 }), null],
  ] as const)('%s', (_name, context, counts, expected) => {
    const found = checkCreateLimits(context, counts, limits, now);
    if (expected === null) {
      expect(found).toBeNull();
    } else {
      expect(found?.retryAfterSeconds).toBe(expected[1]);
      expect(found?.message).toMatch(new RegExp(`\\(SubscriptionLimits__${expected[0]}\\)$`));
    }
  });

  it('counts the seconds to the next UTC day', () => {
    expect(secondsUntilNextUtcDay(new Date('2026-11-22T00:00:00Z'))).toBe(86400);
    expect(secondsUntilNextUtcDay(new Date('2026-11-22T23:59:59.500Z'))).toBe(1);
  });
});

describe('addressLimitsApply', () => {
  it.each([
    [anonymous, 'development', '203.0.113.1', true],
    [anonymous, 'development', '127.0.0.1', false],
    [anonymous, 'development', '127.3.4.5', false],
    [anonymous, 'development', '::1', false],
    [anonymous, 'test', '::1', false],
    [anonymous, 'production', '127.0.0.1', true],
    [anonymous, 'production', '::1', true],
    [user, 'production', '203.0.113.1', false],
  ] as const)('%j in %s from %s → %s', (caller, nodeEnv, address, expected) => {
    expect(addressLimitsApply(caller, nodeEnv, address)).toBe(expected);
  });
});
