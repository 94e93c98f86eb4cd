import type { Knex } from 'knex';
import { leaseDue, nextDueInMs, renewLease, settleLeased, type LeasedRow, type SettledDelivery } from '../ledger/index.ts';
import type { NotificationEvent, RenderedNotification } from '../plugin-api/feed-types.ts';
import type { LeasedQueueStore } from '../plugin-api/queue-types.ts';
import type { EventCache } from './event-cache.ts';

/** A leased ledger row with its (stored, rendered) event, and the events it replaced. */
export interface LeasedDelivery extends LeasedRow {
  readonly event: NotificationEvent;
  readonly rendered: RenderedNotification;
  /** The events of its item this row replaced, which its subscriber never got (oldest first). */
  readonly missed: readonly NotificationEvent[];
  /** The person must confirm it (set by the lane once it asked: see DeliveryRequest.confirm). */
  readonly confirm?: boolean;
  /** The line that asks for it, when core added one (see DeliveryRequest.asks). */
  readonly asks?: string;
}

type Db = Knex | Knex.Transaction;

/** Joins leased rows to their events (and the events they replaced), read once per batch. */
export async function withEvents(db: Db, events: EventCache, rows: readonly LeasedRow[]): Promise<LeasedDelivery[]> {
  const stored = await events.eventsOf(db, new Set(rows.flatMap((row) => [row.eventId, ...row.replaces])));
  return rows.map((row) => {
    const own = stored.get(row.eventId)!;
    const missed = row.replaces.flatMap((id) => {
      const event = stored.get(id)?.event;
      return event ? [event] : [];
    });
    return { ...row, event: own.event, rendered: own.rendered, missed };
  });
}

/**
 * One lane of the delivery ledger as a leased queue (times are the
 * database's): its due rows, urgent first, nothing while it is paused.
 */
export class LaneQueueStore implements LeasedQueueStore<LeasedDelivery, SettledDelivery> {
  readonly #db: Knex;
  readonly #provider: string;
  readonly #leaseSeconds: number;
  readonly #events: EventCache;

  constructor(db: Knex, provider: string, leaseSeconds: number, events: EventCache) {
    this.#db = db;
    this.#provider = provider;
    this.#leaseSeconds = leaseSeconds;
    this.#events = events;
  }

  async lease(limit: number, token: string): Promise<LeasedDelivery[]> {
    return withEvents(this.#db, this.#events, await leaseDue(this.#db, this.#provider, limit, token, this.#leaseSeconds));
  }

  renew(token: string): Promise<void> {
    return renewLease(this.#db, token, this.#leaseSeconds);
  }

  settle(token: string, outcomes: readonly SettledDelivery[]): Promise<number> {
    return settleLeased(this.#db, token, outcomes);
  }

  nextDueInMs(): Promise<number | null> {
    return nextDueInMs(this.#db, this.#provider);
  }
}
