import type { Knex } from 'knex';

/**
 * The one lease-and-retry mechanism of the service. A queue is a table
 * whose due rows are leased in bounded batches (FOR UPDATE SKIP LOCKED, a
 * lease token and a lease end), worked, and settled set-based, only where
 * the lease still holds: a row whose lease lapsed (its instance died) is
 * due again and another instance takes it over. The ledger dispatcher and
 * the email outbox are both such queues; each names its own states.
 */

/**
 * The queue's table, as the worker sees it (one set-based statement per
 * call). A batch's lease is its token: only its holder may renew or settle
 * the rows. The store knows its lease length and its clock (the database's
 * or the service's), so the worker never mixes two clocks.
 */
export interface LeasedQueueStore<TItem, TOutcome> {
  /** Leases up to `limit` due rows under `token`; each lease counts an attempt. */
  lease(limit: number, token: string): Promise<TItem[]>;
  /** Moves the lease end of the rows `token` still holds. */
  renew(token: string): Promise<void>;
  /** Settles the rows `token` still holds; a row taken over meanwhile is left alone. */
  settle(token: string, outcomes: readonly TOutcome[]): Promise<unknown>;
  /**
   * Milliseconds until the next row falls due (a backoff ends, a lease
   * lapses; 0 or less: due now), or null when none waits. A distance, not
   * an instant: each store measures it on the clock its times are kept in
   * (the database's, or the service's), and the worker's timer needs no
   * clock of its own.
   */
  nextDueInMs(): Promise<number | null>;
}

/** What working a batch came to, for the one log line per batch: counts by outcome (and a few words: the provider). */
export type BatchTally = Readonly<Record<string, number | string>>;

/**
 * A leased queue a plugin declares (its own table, its own states): core
 * leases bounded batches, renews the lease while `work` runs, settles the
 * outcomes through the store, wakes the queue on every instance when new
 * work commits, sweeps it every `sweepSeconds`, and stops it at shutdown.
 * The queue's name is also the name of its sweep worker.
 */
export interface PluginQueueDefinition<TItem, TOutcome> {
  /** Names the queue in logs (`core.delivery-dispatcher`, `delivery-email.outbox`). */
  readonly name: string;
  readonly store: LeasedQueueStore<TItem, TOutcome>;
  /**
   * Works one leased batch and returns one outcome per item. Throwing is
   * the worker's fault, not the items': nothing is settled and the rows
   * are due again when their lease lapses. `token` is the batch's lease,
   * for work that settles part of it in a transaction of its own.
   * `signal` aborts when the service stops, or when the lease could not be
   * renewed in time (the database out of reach): send nothing more then,
   * and return what is not done as due again.
   */
  work(batch: readonly TItem[], signal: AbortSignal, token: string): Promise<readonly TOutcome[]>;
  /** Counts for the batch's log line (and other fields: the provider); also says whether any was a failure (logged as a warning). */
  tally?(outcomes: readonly TOutcome[], batch: readonly TItem[]): { counts: BatchTally; failures: number };
  /** Told each batch's outcomes once they are settled (metrics); must not throw. */
  onSettled?(outcomes: readonly TOutcome[], batch: readonly TItem[]): void;
  readonly batchSize: number;
  readonly leaseSeconds: number;
  /** Batches worked at once: the next is leased while the previous one's last items finish. */
  readonly batchesInFlight?: number;
  /** A timer wakes the worker for the next due row only when it falls due sooner than this (the sweep covers the rest). */
  readonly sweepSeconds: number;
}

export interface PluginQueue {
  readonly name: string;
  /** Call inside the transaction that adds work: every instance's worker wakes once it commits. */
  notify(trx: Knex.Transaction): Promise<void>;
  /** Work was added outside a transaction: drain soon, here. */
  wake(): void;
  drain(): Promise<void>;
}

/** The one lease-and-retry mechanism, as plugins reach it. */
export interface QueuePort {
  define<TItem, TOutcome>(definition: PluginQueueDefinition<TItem, TOutcome>): PluginQueue;
}
