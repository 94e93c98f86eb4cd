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
