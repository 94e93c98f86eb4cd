/**
 * Why one event did or did not reach one subscription: the criterion that
 * decided it, named as operators read it. A filter criterion when it did
 * not match (`where`, `feeders`, `keywords`, `eventTypes`, `fields.<id>`);
 * otherwise what the ledger did with the match.
 */
export const TRACE_CRITERIA = {
  /** Held in the subscriber's quiet hours (still waiting, or sent in their catch-up). */
  quietHours: 'quietHours',
  /** A newer event of the same item was claimed while it still waited: only the newer one went. */
  superseded: 'superseded',
  /** The subscriber's budget of messages about the item was spent. */
  overBudget: 'overBudget',
  /** The feed said it is no news to this subscriber (an estimate that moved too little). */
  feedPolicy: 'feedPolicy',
  /** The subscription was made after the event. */
  subscribedLater: 'subscribedLater',
  /** The subscription is not active (unconfirmed, or stopped). */
  inactive: 'inactive',
  /** Held for an operator's decision (it would reach more subscriptions than the threshold). */
  heldByOperator: 'heldByOperator',
  /** An operator discarded it: it is never delivered. */
  discarded: 'discarded',
  /** It matches, and no delivery was claimed for it yet (its fan-out is still under way). */
  notClaimed: 'notClaimed',
  /** An escalation step or a reminder not sent: the person confirmed the alert before it went. */
  confirmed: 'confirmed',
  /** A reminder or an escalation step not sent: nothing was left to confirm (the planned outage was cancelled, or an admin took `confirm` off). */
  withdrawn: 'withdrawn',
  /** A notice to confirm, which goes only to people who confirm (the utility's register). */
  onlyForConfirming: 'onlyForConfirming',
} as const;

/** What the trace knows of one event for one subscription. */
export interface TraceFacts {
  /** The filter's verdict: matched, or the filter criterion it failed. */
  readonly filter: { readonly matched: true } | { readonly matched: false; readonly criterion: string };
  /** The ledger rows of the event for the subscription (normally one), their state and why skipped. */
  readonly rows: ReadonlyArray<{ readonly status: string; readonly skippedBecause: string | null; readonly lastError: string | null }>;
  readonly subscribedBeforeEvent: boolean;
  readonly active: boolean;
  /** The event is a notice to confirm and this subscriber does not confirm. */
  readonly onlyForConfirming?: boolean;
  /** The event's hold for an operator: still `held`, `discarded`, or none (never held, or released). */
  readonly hold: 'held' | 'discarded' | null;
}

export interface TraceVerdict {
  readonly matched: boolean;
  /** The deciding criterion; null when it matched and went (or goes) out. */
  readonly criterion: string | null;
  /** In words, when there is more to say (the feed's reason, the budget). */
  readonly reason: string | null;
}

const SENT_OR_GOING = new Set(['pending', 'delivering', 'retrying', 'queued', 'delivered', 'failed']);

/** Judges one event for one subscription from the facts. Pure. */
export function traceVerdict(facts: TraceFacts): TraceVerdict {
  if (!facts.filter.matched) return { matched: false, criterion: facts.filter.criterion, reason: null };
  const row = facts.rows.find((r) => SENT_OR_GOING.has(r.status)) ?? facts.rows[0];
  if (row === undefined) {
    if (facts.hold === 'held') return { matched: true, criterion: TRACE_CRITERIA.heldByOperator, reason: null };
    if (facts.hold === 'discarded') return { matched: true, criterion: TRACE_CRITERIA.discarded, reason: null };
    if (facts.onlyForConfirming) return { matched: true, criterion: TRACE_CRITERIA.onlyForConfirming, reason: null };
    if (!facts.subscribedBeforeEvent) return { matched: true, criterion: TRACE_CRITERIA.subscribedLater, reason: null };
    if (!facts.active) return { matched: true, criterion: TRACE_CRITERIA.inactive, reason: null };
    return { matched: true, criterion: TRACE_CRITERIA.notClaimed, reason: null };
  }
  switch (row.status) {
    case 'held':
    case 'merged':
      return { matched: true, criterion: TRACE_CRITERIA.quietHours, reason: row.status === 'merged' ? 'sent in the catch-up after the quiet hours' : null };
    case 'superseded':
      return { matched: true, criterion: TRACE_CRITERIA.superseded, reason: null };
    case 'skipped':
      return {
        matched: true,
        criterion:
          row.skippedBecause === 'budget'
            ? TRACE_CRITERIA.overBudget
            : row.skippedBecause === 'confirmed'
              ? TRACE_CRITERIA.confirmed
              : row.skippedBecause === 'withdrawn'
                ? TRACE_CRITERIA.withdrawn
                : TRACE_CRITERIA.feedPolicy,
        reason: row.lastError,
      };
    default:
      return { matched: true, criterion: null, reason: null };
  }
}

/** One attempt of a delivery as the trace shows it: when, and what came of it. */
export interface TracedAttempt {
  readonly attempt: number;
  /** ISO 8601; null for one still on the wire. */
  readonly at: string | null;
  readonly outcome: string;
  readonly error: string | null;
}

/**
 * A delivery's attempts, oldest first: the logged ones that did not end it
 * well (each retry, a failure), then the one that did (delivered, or still
 * on the wire). Pure.
 */
export function attemptHistory(
  row: { readonly status: string; readonly attempts: number; readonly deliveredAt: Date | null },
  logged: ReadonlyArray<{ readonly attempt: number; readonly status: string; readonly error: string | null; readonly at: Date }>,
): TracedAttempt[] {
  const history: TracedAttempt[] = logged.map((entry) => ({ attempt: entry.attempt, at: entry.at.toISOString(), outcome: entry.status, error: entry.error }));
  if (row.status === 'delivered') history.push({ attempt: row.attempts, at: row.deliveredAt?.toISOString() ?? null, outcome: 'delivered', error: null });
  if (row.status === 'delivering') history.push({ attempt: row.attempts, at: null, outcome: 'delivering', error: null });
  return history;
}
