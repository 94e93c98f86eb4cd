import type { Knex } from 'knex';
import type { BatchTally, LeasedQueueStore } from '../queue/leased-queue.ts';
import type { QueueDefinition } from '../queue/queue-registry.ts';

export type { BatchTally, LeasedQueueStore };

/**
 * A leased queue a plugin declares (its own table, its own states): core
 * leases bounded batches, renews the lease while `work` runs, settles the
 * outcomes through the store, wakes the queue on every instance when new
 * work commits, sweeps it every `sweepSeconds`, and stops it at shutdown.
 * The queue's name is also the name of its sweep worker.
 */
export type PluginQueueDefinition<TItem, TOutcome> = QueueDefinition<TItem, TOutcome>;

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
