import type { Caller } from '../http/caller-auth.ts';

export interface SubscriptionLimits {
  MaxPerIp: number;
  MaxPerIpPerDay: number;
  MaxSubscriptionsPerUser: number;
}

export interface UsageCounts {
  /** Live (active or awaiting verification) subscriptions created from the address. */
  liveByIp: number;
  /** Successful anonymous creates from the address this UTC day. */
  createdTodayByIp: number;
  /** Live subscriptions of the authenticated user. */
  liveByUser: number;
}

export interface LimitBreach {
  message: string;
  retryAfterSeconds: number;
}

const HOUR = 3600;

export function secondsUntilNextUtcDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/**
 * Contracts §5, pure: anonymous callers are held to MaxPerIp live
 * subscriptions and MaxPerIpPerDay creates per UTC day; authenticated users
 * to MaxSubscriptionsPerUser live subscriptions, and not to the address
 * limits. A count limit frees up when a subscription is deleted, so its
 * Retry-After is a hint (an hour); the daily one names the next UTC day.
 */
export function checkCreateLimits(caller: Caller, usage: UsageCounts, limits: SubscriptionLimits, now: Date): LimitBreach | null {
  if (caller.kind === 'user') {
    if (usage.liveByUser >= limits.MaxSubscriptionsPerUser) {
      return { message: `at most ${limits.MaxSubscriptionsPerUser} subscriptions per user: delete one first`, retryAfterSeconds: HOUR };
    }
    return null;
  }
  if (usage.createdTodayByIp >= limits.MaxPerIpPerDay) {
    return { message: `at most ${limits.MaxPerIpPerDay} subscriptions may be created per address per day`, retryAfterSeconds: secondsUntilNextUtcDay(now) };
  }
  if (usage.liveByIp >= limits.MaxPerIp) {
    return { message: `at most ${limits.MaxPerIp} subscriptions per address: delete one first`, retryAfterSeconds: HOUR };
  }
  return null;
}
