import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { leaseByIds, type LeasedRow } from '../ledger/index.ts';
import type { DeliveryLane, LaneSlot, LeasedClaim } from './delivery-lane.ts';
import type { EventCache } from './event-cache.ts';
import { withEvents } from './lane-queue-store.ts';

/** A claim's lease: the rows of `providers` are claimed already leased under `token`, for `seconds`. */
export interface ClaimLease {
  readonly token: string;
  readonly seconds: number;
  readonly providers: ReadonlySet<string>;
}

/**
 * Room taken in one or more lanes for rows claimed already leased under
 * `token`: the claim leases the rows of `providers` only, and `run` hands
 * each lane its own rows once the claim commits.
 */
export interface TakeOver extends ClaimLease {
  run(claims: ReadonlyArray<LeasedClaim & { readonly provider: string }>): void;
  release(): void;
}

/**
 * Every provider's lane: what the pipeline hands deliveries to. Claims
 * wake the lanes they concern on every instance; a claim that can be sent
 * at once is leased to the lanes with room (a take-over); a caller that
 * waits for its deliveries has them sent now, each in its lane.
 */
export class DeliveryLanes {
  readonly #lanes: ReadonlyMap<string, DeliveryLane>;
  readonly #db: Knex;
  readonly #events: EventCache;
  readonly #leaseSeconds: number;
  readonly #newToken: () => string;
  /** Rows one dispatcher batch takes (NotificationPipeline__DispatchBatchSize). */
  readonly batchSize: number;

  constructor(options: {
    lanes: readonly DeliveryLane[];
    db: Knex;
    events: EventCache;
    leaseSeconds: number;
    batchSize: number;
    /** A new lease token (the instance's LeaseOwner); random when absent. */
    newToken?: () => string;
  }) {
    this.#newToken = options.newToken ?? randomUUID;
    this.#lanes = new Map(options.lanes.map((lane) => [lane.provider, lane]));
    this.#db = options.db;
    this.#events = options.events;
    this.#leaseSeconds = options.leaseSeconds;
    this.batchSize = options.batchSize;
  }

  get providers(): string[] {
    return [...this.#lanes.keys()];
  }

  lane(provider: string): DeliveryLane | undefined {
    return this.#lanes.get(provider);
  }

  queueNames(): string[] {
    return [...this.#lanes.values()].map((lane) => lane.queueName);
  }

  /** Call inside the transaction that claimed deliveries: the lanes of `providers` (all when absent) wake on every instance once it commits. */
  async notify(trx: Knex.Transaction, providers?: Iterable<string>): Promise<void> {
    const wanted = providers ? new Set(providers) : undefined;
    for (const lane of this.#lanes.values()) if (!wanted || wanted.has(lane.provider)) await lane.notify(trx);
  }

  wake(): void {
    for (const lane of this.#lanes.values()) lane.wake();
  }

  async drain(): Promise<void> {
    await Promise.all([...this.#lanes.values()].map((lane) => lane.drain()));
  }

  /** Waits for every lane's batches under way, then drains what is left: everything due is handled when it resolves. */
  async settle(): Promise<void> {
    await Promise.all([...this.#lanes.values()].map((lane) => lane.settle()));
  }

  /** Room now in those of these lanes that can take rows over (no rate, not paused), or undefined when none can. */
  tryTakeOver(providers: Iterable<string>): TakeOver | undefined {
    const token = this.#newToken();
    const slots = new Map<string, LaneSlot>();
    for (const provider of new Set(providers)) {
      const slot = this.#lanes.get(provider)?.tryTakeOver(token);
      if (slot) slots.set(provider, slot);
    }
    return slots.size === 0 ? undefined : this.#takeOverOf(token, slots);
  }

  /** Room in one lane for a page claimed already leased, waiting for it (a fan-out's backpressure); undefined when the lane takes nothing over. */
  async takeOver(provider: string): Promise<TakeOver | undefined> {
    const token = this.#newToken();
    const slot = await this.#lanes.get(provider)?.takeOver(token);
    return slot ? this.#takeOverOf(token, new Map([[provider, slot]])) : undefined;
  }

  /** A new lease token of this instance's run. */
  newToken(): string {
    return this.#newToken();
  }

  /**
   * The lease of a caller that delivers what it claims itself (deliverNow
   * with the same token): its rows are claimed leased, so no lane's batch
   * takes them between the claim's commit and the caller's delivery.
   */
  callerLease(token: string, providers: Iterable<string> = this.#lanes.keys()): ClaimLease {
    return { token, seconds: this.#leaseSeconds, providers: new Set(providers) };
  }

  /**
   * Delivers exactly these rows now (when due, or claimed under `token`'s
   * caller lease), each in its lane, and waits: /test, announcements.
   * Returns how many were delivered or queued.
   */
  async deliverNow(ledgerIds: readonly number[], token: string = this.#newToken()): Promise<number> {
    let done = 0;
    for (let start = 0; start < ledgerIds.length; start += this.batchSize) {
      const leased = await leaseByIds(this.#db, ledgerIds.slice(start, start + this.batchSize), token, this.#leaseSeconds);
      const byLane = new Map<string, LeasedRow[]>();
      for (const row of leased) {
        const rows = byLane.get(row.subscription.provider);
        if (rows) rows.push(row);
        else byLane.set(row.subscription.provider, [row]);
      }
      const outcomes = await Promise.all(
        [...byLane].map(async ([provider, rows]) => {
          const lane = this.#lanes.get(provider);
          return lane ? lane.work(await withEvents(this.#db, this.#events, rows), token) : [];
        }),
      );
      done += outcomes.flat().filter((outcome) => outcome.status === 'delivered' || outcome.status === 'queued').length;
    }
    return done;
  }

  #takeOverOf(token: string, slots: ReadonlyMap<string, LaneSlot>): TakeOver {
    return {
      token,
      seconds: this.#leaseSeconds,
      providers: new Set(slots.keys()),
      release: () => {
        for (const slot of slots.values()) slot.release();
      },
      run: (claims) => {
        for (const [provider, slot] of slots) {
          const own = claims.filter((claim) => claim.provider === provider);
          if (own.length > 0) slot.run(own);
          else slot.release();
        }
      },
    };
  }
}
