import type { Knex } from 'knex';
import type { NotificationEvent } from '../../plugin-api/feed-types.ts';
import type { SubscriptionRow } from '../event-store.ts';
import { claimEvents, coalesceClaims, supersedeWaiting, type ClaimTarget } from '../ledger/ledger-claims.ts';
import type { FilterCache } from '../matching/subscription-filter.ts';
import { holdClaims, quietHoursOf, unreleasedHolds } from '../quiet-hours/hold-claims.ts';
import { holdUntil } from '../quiet-hours/quiet-hours.ts';

/** A stored event as fan-out sees it. */
export interface FanoutEvent {
  readonly eventId: number;
  readonly event: NotificationEvent;
  readonly itemKey: string;
}

export interface FanoutRules {
  readonly filters: FilterCache;
  /** The providers with an installed delivery target (rows of others are claimed failed, saying why). */
  installed(): readonly string[];
  /** Event types coalesced within a subscription's cooldown (the feed's manifest says which). */
  coalescedTypes(feedId: string): ReadonlySet<string>;
  /** The types of waiting rows of the same item that an event of this type supersedes (the feed's manifest, `supersedes`). */
  supersededTypes(feedId: string, eventType: string): readonly string[];
  readonly cooldownSeconds: number;
  /** Quiet hours: the service clock, and each feed's urgent types and zone. Without it nothing is held. */
  readonly quiet?: QuietRules;
}

export interface QuietRules {
  now(): Date;
  /** Types delivered at once even in quiet hours (the feed's manifest `urgentEventTypes`). */
  urgentTypes(feedId: string): ReadonlySet<string>;
  /** The feed's zone: quiet hours without a zone of their own are in it. */
  zoneOf(feedId: string): string;
}

export interface ClaimedPage {
  /** Rows claimed for delivery (pending, or leased under the page's lease), in the ledger's id order. */
  readonly claimedIds: number[];
  /** Subscriptions of the page that matched at least one event. */
  readonly matched: Set<number>;
  /** The rows claimed already leased (`leaseTo`): their dispatcher takes them over, no second write to lease them. */
  readonly leased: LeasedClaim[];
}

/** A row claimed already leased, with what its delivery needs. */
export interface LeasedClaim {
  readonly ledgerId: number;
  readonly eventId: number;
  readonly subscription: SubscriptionRow;
}

/**
 * Matches one page of a feed's subscriptions against the events (compiled
 * filters, in memory; every subscription when `matchAll`, as /test asks)
 * and claims the ledger rows set-based, every event at once; a row the
 * ledger already holds is skipped. Claimed rows of coalesced types wait
 * out their subscription's cooldown; a claimed row supersedes the waiting
 * rows of its item that its type makes pointless. Runs in the caller's
 * transaction.
 */
export async function claimPage(
  trx: Knex.Transaction,
  rules: FanoutRules,
  feedId: string,
  events: readonly FanoutEvent[],
  page: readonly SubscriptionRow[],
  matchAll = false,
  leaseTo?: { readonly token: string; readonly seconds: number },
): Promise<ClaimedPage> {
  const coalesced = rules.coalescedTypes(feedId);
  const matched = new Set<number>();
  const targets: ClaimTarget[] = [];
  const byId = new Map(page.map((row) => [Number(row.id), row]));
  const filters = page.map((row) => (matchAll ? () => true : rules.filters.ofText(row.filter_text)));
  // Event by event, so the ledger numbers an earlier event's rows first.
  events.forEach((entry, index) => {
    for (const [position, row] of page.entries()) {
      if (!filters[position](entry.event)) continue;
      matched.add(Number(row.id));
      targets.push({ event: index, subscriptionId: Number(row.id), provider: row.provider });
    }
  });
  if (targets.length === 0) return { claimedIds: [], matched, leased: [] };
  // A coalesced row may have to wait out a cooldown: it is claimed waiting, never leased.
  const leasedEvents = new Set(events.flatMap((entry, index) => (coalesced.has(entry.event.eventType) ? [] : [index])));
  const rows = await claimEvents(
    trx,
    events.map(({ event, eventId, itemKey }) => ({ eventId, feedId, sourceKey: event.sourceKey, eventType: event.eventType, itemKey })),
    targets,
    rules.installed(),
    leaseTo && { ...leaseTo, events: leasedEvents },
  );
  const typeOf = (row: { event: number }) => events[row.event].event.eventType;
  await coalesceClaims(trx, rows.filter((row) => coalesced.has(typeOf(row))).map((row) => row.id), rules.cooldownSeconds);
  const superseding = rows.flatMap((row) => rules.supersededTypes(feedId, typeOf(row)).map((eventType) => ({ id: row.id, eventType })));
  await supersedeWaiting(trx, superseding);
  // Inside a subscriber's quiet hours a type that is not urgent is held for the catch-up (never a /test).
  const held = new Set<number>();
  if (rules.quiet && !matchAll) {
    const now = rules.quiet.now();
    const urgent = rules.quiet.urgentTypes(feedId);
    const zone = rules.quiet.zoneOf(feedId);
    // Only subscriptions with quiet hours can have a catch-up still to go: a page without any asks nothing more.
    const quiet = rows.filter((row) => !urgent.has(typeOf(row)) && byId.get(row.subscriptionId)!.preferences?.quietHours !== undefined);
    const pending = await unreleasedHolds(trx, quiet.map((row) => row.subscriptionId));
    const holds = rows.flatMap((row) => {
      const until = holdUntil(typeOf(row), urgent, quietHoursOf(byId.get(row.subscriptionId)!.preferences, zone), now);
      if (until) return [{ id: row.id, until }];
      // Outside the hours, but a catch-up is still to go: this waits for it and goes in it.
      const waiting = urgent.has(typeOf(row)) ? undefined : pending.get(row.subscriptionId);
      return waiting ? [{ id: row.id, until: waiting }] : [];
    });
    await holdClaims(trx, holds, now);
    for (const hold of holds) held.add(hold.id);
  }
  const delivered = rows.filter((row) => !held.has(row.id));
  const leased: LeasedClaim[] = leaseTo
    ? delivered.filter((row) => leasedEvents.has(row.event)).map((row) => ({ ledgerId: row.id, eventId: events[row.event].eventId, subscription: byId.get(row.subscriptionId)! }))
    : [];
  return { claimedIds: delivered.map((row) => row.id).sort((a, b) => a - b), matched, leased };
}
