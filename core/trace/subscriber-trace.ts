import type { Knex } from 'knex';
import type { FilterCache } from '../matching/index.ts';
import { latestEvents, ledgerRowsOf, summaryOf, type SubscriptionSummary, type TracedSubscription } from './trace-store.ts';
import { attemptHistory, traceVerdict, type TracedAttempt } from './trace-verdict.ts';

/** How many of its feed's latest events a trace judges. */
export const TRACE_EVENTS = 50;

export interface TracedDelivery {
  readonly id: number;
  readonly status: string;
  readonly createdAt: string;
  readonly deliveredAt: string | null;
  readonly outcome: string | null;
  readonly outcomeCode: string | null;
  readonly outcomeAt: string | null;
  /** The delivery that replaced it (superseded), or the catch-up it went in (merged). */
  readonly supersededBy: number | null;
  readonly mergedInto: number | null;
  readonly attempts: TracedAttempt[];
}

export interface TracedEvent {
  readonly eventId: number;
  readonly eventType: string;
  readonly sourceKey: string;
  readonly itemKey: string;
  readonly createdAt: string;
  readonly matched: boolean;
  readonly criterion: string | null;
  readonly reason: string | null;
  readonly deliveries: TracedDelivery[];
}

export interface SubscriberTrace {
  readonly subscription: SubscriptionSummary;
  readonly events: TracedEvent[];
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/**
 * Why a subscriber got what they got: the last TRACE_EVENTS events of its
 * feed, newest first, each judged by the same filter criteria fan-out
 * matches with (explained, not copied) and by what the ledger did with the
 * match; for each delivery, every attempt with its time and outcome.
 */
export async function traceSubscriber(db: Knex, filters: FilterCache, subscription: TracedSubscription): Promise<SubscriberTrace> {
  const events = await latestEvents(db, subscription.feedId, TRACE_EVENTS);
  const { rows, attempts } = await ledgerRowsOf(
    db,
    subscription.id,
    events.map((event) => event.id),
  );
  const explain = filters.explain(subscription.feedId, subscription.filter);
  return {
    subscription: summaryOf(subscription),
    events: events.map((stored) => {
      const own = rows.filter((row) => row.eventId === stored.id);
      const verdict = traceVerdict({
        filter: explain(stored.event),
        rows: own,
        subscribedBeforeEvent: subscription.createdAt <= stored.createdAt,
        active: subscription.isActive,
        onlyForConfirming: stored.event.confirmBy !== undefined && !subscription.confirms,
        hold: stored.hold,
      });
      return {
        eventId: stored.id,
        eventType: stored.event.eventType,
        sourceKey: stored.event.sourceKey,
        itemKey: stored.event.itemKey ?? stored.event.sourceKey,
        createdAt: stored.createdAt.toISOString(),
        ...verdict,
        deliveries: own.map((row) => ({
          id: row.id,
          status: row.status,
          createdAt: row.createdAt.toISOString(),
          deliveredAt: iso(row.deliveredAt),
          outcome: row.outcome,
          outcomeCode: row.outcomeCode,
          outcomeAt: iso(row.outcomeAt),
          supersededBy: row.supersededBy,
          mergedInto: row.mergedInto,
          attempts: attemptHistory(
            row,
            attempts.filter((attempt) => attempt.ledgerId === row.id),
          ),
        })),
      };
    }),
  };
}
