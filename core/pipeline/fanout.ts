import type { Knex } from 'knex';
import type { NotificationEvent } from '../plugin-api/feed-types.ts';
import type { SubscriptionRow } from './event-store.ts';
import { claimEvent, coalesceClaims, supersedeWaiting } from './ledger-repository.ts';
import type { FilterCache } from './subscription-filter.ts';

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
 * and claims the ledger rows, one set-based statement per event; a row the ledger
 * already holds is skipped. Claimed rows of coalesced types wait out their
 * subscription's cooldown; a claimed row supersedes the waiting rows of
 * its item that its type makes pointless. Runs in the caller's transaction.
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
  const claimedIds: number[] = [];
  const leased: LeasedClaim[] = [];
  const byId = new Map(page.map((row) => [Number(row.id), row]));
  const perEvent = events.map(() => ({ ids: [] as number[], providers: [] as string[] }));
  for (const row of page) {
    const matches = matchAll ? () => true : rules.filters.get(row.filter_json);
    events.forEach((entry, index) => {
      if (!matches(entry.event)) return;
      matched.add(Number(row.id));
      perEvent[index].ids.push(Number(row.id));
      perEvent[index].providers.push(row.provider);
    });
  }
  for (const [index, entry] of events.entries()) {
    const { event, eventId, itemKey } = entry;
    // A coalesced row may have to wait out a cooldown: it is claimed waiting, never leased.
    const lease = coalesced.has(event.eventType) ? undefined : leaseTo;
    const rows = await claimEvent(trx, { eventId, feedId, sourceKey: event.sourceKey, eventType: event.eventType, itemKey }, perEvent[index], rules.installed(), lease);
    const ids = rows.map((row) => row.id);
    if (coalesced.has(event.eventType)) await coalesceClaims(trx, ids, rules.cooldownSeconds);
    const superseded = rules.supersededTypes(feedId, event.eventType);
    if (superseded.length > 0) await supersedeWaiting(trx, ids.flatMap((id) => superseded.map((eventType) => ({ id, eventType }))));
    claimedIds.push(...ids);
    if (lease) for (const row of rows) leased.push({ ledgerId: row.id, eventId, subscription: byId.get(row.subscriptionId)! });
  }
  return { claimedIds: claimedIds.sort((a, b) => a - b), matched, leased };
}
