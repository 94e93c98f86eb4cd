import type { Knex } from 'knex';
import type { ClaimLease, LeasedClaim } from '../../delivery/index.ts';
import { claimRows, followsEarlierEvent, holdForQuietHours, supersedeWaiting, unreleasedHolds, waitOutCooldown, type ClaimTarget } from '../../ledger/index.ts';
import type { NotificationEvent } from '../../plugin-api/feed-types.ts';
import { takesEvent, type FilterCache, type SubscriptionRow } from '../../matching/index.ts';
import { quietHoursOf } from '../quiet-hours/hold-claims.ts';
import { holdUntil } from '../quiet-hours/quiet-hours.ts';
import { TEST_EVENT_TYPE } from '../test-event.ts';
import { skipUntold } from './skip-untold.ts';
import type { TellingRules } from './telling.ts';

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
  /** Types the feed marks urgent (its manifest `urgentEventTypes`): first in their lane, and through quiet hours. */
  urgentTypes(feedId: string): ReadonlySet<string>;
  readonly cooldownSeconds: number;
  /** What decides whether a subscriber told of an item before is told its next event: the budget per item, the feed's policy. */
  telling(feedId: string): TellingRules;
  /** Quiet hours: the service clock and each feed's zone. Without it nothing is held. */
  readonly quiet?: QuietRules;
}

export interface QuietRules {
  now(): Date;
  /** The feed's zone: quiet hours without a zone of their own are in it. */
  zoneOf(feedId: string): string;
}

/** Whether an event goes first in its lane and through quiet hours: the event says so, its feed marks its type, or it is a test. */
export function isUrgent(rules: Pick<FanoutRules, 'urgentTypes'>, event: NotificationEvent): boolean {
  return event.urgent === true || event.eventType === TEST_EVENT_TYPE || rules.urgentTypes(event.feedId).has(event.eventType);
}

export interface ClaimedPage {
  /** Rows claimed for delivery (pending, or leased under the take-over), in the ledger's id order. */
  readonly claimedIds: number[];
  /** Subscriptions of the page that matched at least one event. */
  readonly matched: Set<number>;
  /** The rows claimed already leased to their lanes: each lane takes its own over, with no second write to lease them. */
  readonly leased: Array<LeasedClaim & { readonly provider: string }>;
  /** The providers of the rows claimed waiting: their lanes are to be woken. */
  readonly waitingProviders: Set<string>;
}

/**
 * Matches one page of a feed's subscriptions against the events (compiled
 * filters, in memory; every subscription when `matchAll`, as /test asks;
 * an event with `confirmBy` only those who confirm) and claims the ledger rows set-based, every event at once; a row the
 * ledger already holds is skipped. A claimed row of an event that
 * follows earlier ones of its item is `skipped` when its subscriber spent
 * their budget for the item or its feed says it is no news to them (the
 * item's end always goes); it supersedes that subscription's rows of the
 * item still waiting (latest state only), skipped or not, since what they
 * carry is stale. Claimed rows of coalesced types wait out their
 * subscription's cooldown. Inside a subscriber's quiet
 * hours a row that is not urgent is held for the catch-up. Rows of the
 * providers `lease` names are claimed already leased under its token (the
 * lanes a take-over has room in, or a caller that delivers them itself),
 * coalesced rows excepted. Runs in the caller's transaction.
 */
export async function claimPage(
  trx: Knex.Transaction,
  rules: FanoutRules,
  feedId: string,
  events: readonly FanoutEvent[],
  page: readonly SubscriptionRow[],
  matchAll = false,
  lease?: ClaimLease,
): Promise<ClaimedPage> {
  const coalesced = rules.coalescedTypes(feedId);
  const matched = new Set<number>();
  const targets: ClaimTarget[] = [];
  const byId = new Map(page.map((row) => [Number(row.id), row]));
  const filters = page.map((row) => (matchAll ? () => true : rules.filters.ofText(feedId, row.filter_text)));
  // Event by event, so the ledger numbers an earlier event's rows first.
  events.forEach((entry, index) => {
    for (const [position, row] of page.entries()) {
      if (!filters[position]!(entry.event)) continue;
      // A notice to confirm goes only to subscribers who confirm (a /test aside).
      if (!matchAll && !takesEvent(entry.event, row.preferences)) continue;
      matched.add(Number(row.id));
      targets.push({ event: index, subscriptionId: Number(row.id), provider: row.provider });
    }
  });
  if (targets.length === 0) return { claimedIds: [], matched, leased: [], waitingProviders: new Set() };
  const urgent = events.map((entry) => isUrgent(rules, entry.event));
  // A coalesced row may have to wait out a cooldown: it is claimed waiting, never leased.
  const leasedEvents = new Set(events.flatMap((entry, index) => (coalesced.has(entry.event.eventType) ? [] : [index])));
  const rows = await claimRows(
    trx,
    events.map(({ event, eventId, itemKey }, index) => ({
      eventId,
      feedId,
      sourceKey: event.sourceKey,
      eventType: event.eventType,
      itemKey,
      urgent: urgent[index]!,
    })),
    targets,
    rules.installed(),
    lease && { token: lease.token, seconds: lease.seconds, providers: lease.providers, events: leasedEvents },
  );
  // Only an event that follows earlier ones of its item can find rows of it told or still waiting.
  const follows = await followsEarlierEvent(
    trx,
    events.map(({ eventId, itemKey }) => ({ eventId, feedId, itemKey })),
  );
  const followers = rows.filter((row) => follows[row.event]);
  const skipped = matchAll
    ? new Set<number>()
    : await skipUntold(
        trx,
        rules.telling(feedId),
        followers.map((row) => ({ id: row.id, subscriptionId: row.subscriptionId, event: events[row.event]!.event, itemKey: events[row.event]!.itemKey })),
      );
  const replaced = await supersedeWaiting(
    trx,
    followers.map((row) => row.id),
  );
  const told = skipped.size === 0 ? rows : rows.filter((row) => !skipped.has(row.id));
  const typeOf = (row: { event: number }) => events[row.event]!.event.eventType;
  await waitOutCooldown(
    trx,
    told.filter((row) => coalesced.has(typeOf(row))).map((row) => row.id),
    rules.cooldownSeconds,
  );
  const urgentRow = (row: { id: number; event: number }) => urgent[row.event]! || replaced.get(row.id)?.urgent === true;
  // A notice to confirm is never held either (a catch-up would not ask for it): it goes in the feed's notice hours.
  const holdable = (row: { id: number; event: number }) => !urgentRow(row) && events[row.event]!.event.confirmBy === undefined;
  // Inside a subscriber's quiet hours a row that is not urgent is held for the catch-up (never a /test).
  const held = new Set<number>();
  if (rules.quiet && !matchAll) {
    const now = rules.quiet.now();
    const zone = rules.quiet.zoneOf(feedId);
    // Only subscriptions with quiet hours can have a catch-up still to go: a page without any asks nothing more.
    const quiet = told.filter((row) => holdable(row) && byId.get(row.subscriptionId)!.preferences?.quietHours !== undefined);
    const pending = await unreleasedHolds(
      trx,
      quiet.map((row) => row.subscriptionId),
    );
    const holds = told.flatMap((row) => {
      const until = holdUntil(!holdable(row), quietHoursOf(byId.get(row.subscriptionId)!.preferences, zone), now);
      if (until) return [{ id: row.id, until }];
      // Outside the hours, but a catch-up is still to go: this waits for it and goes in it.
      const waiting = holdable(row) ? pending.get(row.subscriptionId) : undefined;
      return waiting ? [{ id: row.id, until: waiting }] : [];
    });
    await holdForQuietHours(trx, holds, now);
    for (const hold of holds) held.add(hold.id);
  }
  const delivered = told.filter((row) => !held.has(row.id));
  const leased = delivered
    .filter((row) => row.leased)
    .map((row) => ({
      ledgerId: row.id,
      eventId: events[row.event]!.eventId,
      provider: row.provider,
      replaces: replaced.get(row.id)?.replaces ?? [],
      subscription: byId.get(row.subscriptionId)!,
    }));
  const waitingProviders = new Set(delivered.filter((row) => !row.leased).map((row) => row.provider));
  return { claimedIds: delivered.map((row) => row.id).sort((a, b) => a - b), matched, leased, waitingProviders };
}
