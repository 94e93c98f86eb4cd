import type { PluginQueueDefinition } from '../plugin-api/queue-types.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import type { WorkerDefinition } from '../plugin-api/worker-types.ts';
import { QueueWorker, type QueueRoom } from './queue-worker.ts';
import type { Wakeups } from './wakeups.ts';

/** A queue as its owner drives it. */
export interface QueueHandle<TItem = unknown, TOutcome = unknown> {
  readonly name: string;
  /** Call inside the transaction that adds work: every instance's worker wakes once it commits. */
  notify(trx: Knex.Transaction): Promise<void>;
  /** Work was added outside a transaction (an operator's requeue): drain soon. */
  wake(): void;
  drain(): Promise<void>;
  settle(): Promise<void>;
  /** Works and settles a batch its owner leased under `token` itself (chosen rows, delivered while a request waits). */
  work(batch: readonly TItem[], token: string): Promise<readonly TOutcome[]>;
}

/** A queue as core defines it: a plugin's definition, and for core's own queues room shared with their owner. */
export type QueueDefinition<TItem, TOutcome> = PluginQueueDefinition<TItem, TOutcome> & { readonly room?: QueueRoom };

/** `delivery-email.outbox` → `queue_delivery_email_outbox`: a LISTEN channel of its own per queue. */
const channelOf = (name: string) => `queue_${name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`.slice(0, 63);

/**
 * Every leased queue of the service (core's dispatcher and the plugins'),
 * made through one mechanism: wake-ups through LISTEN/NOTIFY or in-process,
 * a periodic sweep registered as a worker, and a bounded stop.
 */
export class QueueRegistry {
  readonly #wakeups: Wakeups;
  readonly #log: FastifyBaseLogger;
  readonly #newToken: (() => string) | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: workers of any plugin queue's item and result types
  readonly #queues = new Map<string, { worker: QueueWorker<any, any>; sweepSeconds: number; unlisten?: () => void }>();

  constructor(wakeups: Wakeups, log: FastifyBaseLogger, newToken?: () => string) {
    this.#wakeups = wakeups;
    this.#log = log;
    this.#newToken = newToken;
  }

  define<TItem, TOutcome>(definition: QueueDefinition<TItem, TOutcome>, log: FastifyBaseLogger = this.#log): QueueHandle<TItem, TOutcome> {
    if (this.#queues.has(definition.name)) throw new Error(`queue "${definition.name}" is defined twice`);
    const worker = new QueueWorker({ ...definition, log, newToken: this.#newToken });
    this.#queues.set(definition.name, { worker, sweepSeconds: definition.sweepSeconds });
    const channel = channelOf(worker.name);
    return {
      name: worker.name,
      notify: async (trx) => {
        await this.#wakeups.notify(channel, trx);
        // Here as well, at once after the commit: this instance's LISTEN connection may still be on its way.
        trx.executionPromise.then(
          () => worker.wake(),
          () => undefined,
        );
      },
      wake: () => worker.wake(),
      drain: () => worker.drain(),
      settle: () => worker.settle(),
      work: (batch, token) => worker.work(batch, token),
    };
  }

  /**
   * This instance works these queues (all when no names are given):
   * wake-ups start drains, and with `sweeps` each also gets a sweep worker
   * of its name (every instance sweeps: rows are leased with SKIP LOCKED,
   * never twice). Returns the sweep workers to register.
   */
  start(options: { sweeps: boolean; names?: readonly string[] }): WorkerDefinition[] {
    const sweeps: WorkerDefinition[] = [];
    for (const [name, entry] of this.#queues) {
      if (options.names && !options.names.includes(name)) continue;
      if (!entry.unlisten) {
        entry.worker.start();
        entry.unlisten = this.#wakeups.listen(channelOf(name), () => entry.worker.wake());
      }
      if (options.sweeps) sweeps.push({ name, intervalSeconds: entry.sweepSeconds, exclusive: false, run: () => entry.worker.drain() });
    }
    return sweeps;
  }

  /** Every queue drains now (due work appeared that no wake-up announced: an earlier run's leases given back). */
  wakeAll(): void {
    for (const entry of this.#queues.values()) entry.worker.wake();
  }

  names(): string[] {
    return [...this.#queues.keys()];
  }

  async stop(graceMs?: number): Promise<void> {
    await Promise.all(
      [...this.#queues.values()].map(async (entry) => {
        entry.unlisten?.();
        await entry.worker.stop(graceMs);
      }),
    );
  }
}
