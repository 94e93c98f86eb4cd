import type { Caller } from '../http/caller-auth.ts';
import { isLoopback } from '../http/client-address.ts';

export interface SubscriptionLimits {
  MaxPerIp: number;
  MaxPerIpPerDay: number;
  MaxSubscriptionsPerUser: number;
  MaxVerificationsPerAddressPerDay: number;
  Ipv6PrefixLength: number;
}

export interface CreateContext {
  caller: Caller;
  /** The per-address limits hold for this anonymous caller (see addressLimitsApply). */
  addressLimits: boolean;
  /** The new subscription sends a verification email (an Email subscription). */
  verifies: boolean;
}

export interface UsageCounts {
  /** Live (active or awaiting verification) subscriptions created from the address. */
  liveByIp: number;
  /** Successful anonymous creates from the address this UTC day. */
  createdTodayByIp: number;
  /** Live subscriptions of the authenticated user. */
  liveByUser: number;
  /** Verification emails queued to the destination address this UTC day. */
  verificationsToday: number;
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
 * Whether the per-address limits hold: not for authenticated users, and,
 * outside production, not for loopback callers (someone trying the service
 * on their own machine is not locked out after three creates). In
 * production a loopback client is a proxy that sent no X-Forwarded-For,
 * and is held like any other.
 */
export function addressLimitsApply(caller: Caller, nodeEnv: string, clientAddress: string): boolean {
  if (caller.kind === 'user') return false;
  return nodeEnv === 'production' || !isLoopback(clientAddress);
}

const breach = (message: string, key: keyof SubscriptionLimits, retryAfterSeconds: number): LimitBreach => ({
  message: `${message} (SubscriptionLimits__${key})`,
  retryAfterSeconds,
});

/**
 * Contracts §5, pure: anonymous callers are held to MaxPerIp live
 * subscriptions and MaxPerIpPerDay creates per UTC day; authenticated users
 * to MaxSubscriptionsPerUser live subscriptions, and not to the address
 * limits; a subscription that sends a verification email to at most
 * MaxVerificationsPerAddressPerDay per destination, whoever asks. A count
 * limit frees up when a subscription is deleted, so its Retry-After is a
 * hint (an hour); a daily one names the next UTC day. Each message names
 * the limit's configuration key.
 */
export function checkCreateLimits(context: CreateContext, usage: UsageCounts, limits: SubscriptionLimits, now: Date): LimitBreach | null {
  if (context.caller.kind === 'user' && usage.liveByUser >= limits.MaxSubscriptionsPerUser) {
    return breach(`at most ${limits.MaxSubscriptionsPerUser} subscriptions per user: delete one first`, 'MaxSubscriptionsPerUser', HOUR);
  }
  if (context.addressLimits && usage.createdTodayByIp >= limits.MaxPerIpPerDay) {
    return breach(`at most ${limits.MaxPerIpPerDay} subscriptions may be created per address per day`, 'MaxPerIpPerDay', secondsUntilNextUtcDay(now));
  }
  if (context.addressLimits && usage.liveByIp >= limits.MaxPerIp) {
    return breach(`at most ${limits.MaxPerIp} subscriptions per address: delete one first`, 'MaxPerIp', HOUR);
  }
  if (context.verifies && usage.verificationsToday >= limits.MaxVerificationsPerAddressPerDay) {
    return breach(
      `at most ${limits.MaxVerificationsPerAddressPerDay} verification emails per destination address per day`,
      'MaxVerificationsPerAddressPerDay',
      secondsUntilNextUtcDay(now),
    );
  }
  return null;
}
