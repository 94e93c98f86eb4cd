import { describe, expect, it } from 'vitest';
import {
  addressLimitsApply,
  checkCreateLimits,
  judgeCreates,
  secondsUntilNextUtcDay,
  type CreateCandidate,
  type CreateContext,
  type UsageByKey,
} from './create-limits.ts';

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
    [
      'the verification limit holds on loopback in development',
      email(anonymous, false),
      usage({ verificationsToday: 3 }),
      ['MaxVerificationsPerAddressPerDay', 3600],
    ],
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

describe('judgeCreates: a batch judged as if its creates ran one after another', () => {
  const anonymousAt = (ip: string, verifiedAddress: string | null = null): CreateCandidate => ({
    ...(verifiedAddress ? email(anonymous) : push(anonymous)),
    ip,
    owner: null,
    verifiedAddress,
  });
  const userAt = (ip: string, verifiedAddress: string | null = null): CreateCandidate => ({
    ...(verifiedAddress ? email(user) : push(user)),
    ip,
    owner: 'u1',
    verifiedAddress,
  });
  const stored = (counts: Partial<{ [K in keyof UsageByKey]: Record<string, number> }>): UsageByKey => ({
    liveByIp: new Map(Object.entries(counts.liveByIp ?? {})),
    createdTodayByIp: new Map(Object.entries(counts.createdTodayByIp ?? {})),
    liveByUser: new Map(Object.entries(counts.liveByUser ?? {})),
    verificationsToday: new Map(Object.entries(counts.verificationsToday ?? {})),
  });
  const verdicts = (candidates: CreateCandidate[], before: UsageByKey) =>
    judgeCreates(candidates, before, limits, now).map((breach) => (breach === null ? 'ok' : /__(\w+)\)$/.exec(breach.message)![1]));

  it.each([
    ['an empty batch', [], stored({}), []],
    [
      'one address: the fourth of a batch hits the daily limit',
      [anonymousAt('a'), anonymousAt('a'), anonymousAt('a'), anonymousAt('a')],
      stored({}),
      ['ok', 'ok', 'ok', 'MaxPerIpPerDay'],
    ],
    ['the stored usage counts first', [anonymousAt('a'), anonymousAt('a')], stored({ liveByIp: { a: 2 } }), ['ok', 'MaxPerIp']],
    ['the daily count is judged before the live count', [anonymousAt('a')], stored({ createdTodayByIp: { a: 3 } }), ['MaxPerIpPerDay']],
    ['addresses count apart', [anonymousAt('a'), anonymousAt('b'), anonymousAt('a')], stored({ liveByIp: { a: 2, b: 2 } }), ['ok', 'ok', 'MaxPerIp']],
    [
      'a refused create adds nothing',
      [anonymousAt('a', 'x'), anonymousAt('a', 'y'), anonymousAt('b', 'y')],
      stored({ liveByIp: { a: 2 }, verificationsToday: { y: 2 } }),
      ['ok', 'MaxPerIp', 'ok'],
    ],
    [
      'users count per account, not per address',
      [userAt('a'), userAt('a'), userAt('a')],
      stored({ liveByIp: { a: 9 } }),
      ['ok', 'ok', 'MaxSubscriptionsPerUser'],
    ],
    ["a user's creates leave the address's counts alone", [userAt('a'), anonymousAt('a')], stored({ liveByIp: { a: 2 } }), ['ok', 'ok']],
    [
      'one destination address, whoever asks',
      [anonymousAt('a', 'x'), anonymousAt('b', 'x'), userAt('c', 'x'), anonymousAt('d', 'x')],
      stored({}),
      ['ok', 'ok', 'ok', 'MaxVerificationsPerAddressPerDay'],
    ],
  ] as const)('%s', (_name, candidates, before, expected) => {
    expect(verdicts([...candidates], before)).toEqual(expected);
  });

  it('holds the same verdicts as judging each create alone against the usage it leaves', () => {
    const batch = [anonymousAt('a', 'x'), userAt('a'), anonymousAt('a'), anonymousAt('a', 'x'), userAt('b', 'x'), anonymousAt('a'), userAt('a')];
    const usage = { liveByIp: 1, createdTodayByIp: 1, liveByUser: 0, verificationsToday: 1 };
    const one = batch.map((candidate) => {
      const alone = {
        liveByIp: usage.liveByIp,
        createdTodayByIp: usage.createdTodayByIp,
        liveByUser: usage.liveByUser,
        verificationsToday: candidate.verifiedAddress ? usage.verificationsToday : 0,
      };
      const breach = checkCreateLimits(candidate, alone, limits, now);
      if (!breach) {
        if (candidate.owner === null) {
          usage.liveByIp += 1;
          usage.createdTodayByIp += 1;
        } else usage.liveByUser += 1;
        if (candidate.verifiedAddress) usage.verificationsToday += 1;
      }
      return breach;
    });
    expect(judgeCreates(batch, stored({ liveByIp: { a: 1 }, createdTodayByIp: { a: 1 }, verificationsToday: { x: 1 } }), limits, now)).toEqual(one);
  });
});
