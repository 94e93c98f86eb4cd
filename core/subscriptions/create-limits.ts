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
 * The create limits (pure): anonymous callers are held to MaxPerIp live
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
      `at most ${limits.MaxVerificationsPerAddressPerDay} verification messages per destination (an email address or a phone number) per day`,
      'MaxVerificationsPerAddressPerDay',
      secondsUntilNextUtcDay(now),
    );
  }
  return null;
}

/** One create of a batch, as the limits see it. */
export interface CreateCandidate extends CreateContext {
  /** The client address as counted (IPv6 per prefix). */
  ip: string;
  /** The authenticated user's id; null for an anonymous caller. */
  owner: string | null;
  /** The digest of the address a verification email goes to; null when none goes. */
  verifiedAddress: string | null;
}

/** The usage before a batch, per key; a key not in a map counts 0. */
export interface UsageByKey {
  liveByIp: ReadonlyMap<string, number>;
  createdTodayByIp: ReadonlyMap<string, number>;
  liveByUser: ReadonlyMap<string, number>;
  verificationsToday: ReadonlyMap<string, number>;
}

/**
 * Judges the creates of one batch in their order, as if each ran alone
 * after the ones before it: each sees the usage stored before the batch
 * plus what the batch's earlier accepted creates add (a refused create adds
 * nothing). Returns each create's breach, or null when it may be stored.
 */
export function judgeCreates(candidates: readonly CreateCandidate[], before: UsageByKey, limits: SubscriptionLimits, now: Date): Array<LimitBreach | null> {
  const added: { [K in keyof UsageByKey]: Map<string, number> } = {
    liveByIp: new Map(),
    createdTodayByIp: new Map(),
    liveByUser: new Map(),
    verificationsToday: new Map(),
  };
  const count = (kind: keyof UsageByKey, key: string | null) => (key === null ? 0 : (before[kind].get(key) ?? 0) + (added[kind].get(key) ?? 0));
  const add = (kind: keyof UsageByKey, key: string) => added[kind].set(key, (added[kind].get(key) ?? 0) + 1);
  return candidates.map((candidate) => {
    const usage: UsageCounts = {
      liveByIp: count('liveByIp', candidate.ip),
      createdTodayByIp: count('createdTodayByIp', candidate.ip),
      liveByUser: count('liveByUser', candidate.owner),
      verificationsToday: count('verificationsToday', candidate.verifiedAddress),
    };
    const breach = checkCreateLimits(candidate, usage, limits, now);
    if (breach) return breach;
    // A new subscription is live (active, or awaiting verification). Address counts hold anonymous subscriptions only.
    if (candidate.owner === null) {
      add('liveByIp', candidate.ip);
      add('createdTodayByIp', candidate.ip);
    } else {
      add('liveByUser', candidate.owner);
    }
    if (candidate.verifiedAddress !== null) add('verificationsToday', candidate.verifiedAddress);
    return null;
  });
}
