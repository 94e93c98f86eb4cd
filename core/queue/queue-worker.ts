import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { PluginQueueDefinition } from '../plugin-api/queue-types.ts';

/**
 * Room for batches shared with work the queue's owner leases itself (a
 * delivery lane's take-overs): with it, a drain asks for room before each
 * lease instead of counting its own batches in flight.
 */
export interface QueueRoom {
  acquire(): Promise<void>;
  release(): void;
}

/** A queue's definition as its owner declares it (core's queues may share room), and the logger it writes to. */
export interface QueueWorkerOptions<TItem, TOutcome> extends PluginQueueDefinition<TItem, TOutcome> {
  readonly log: FastifyBaseLogger;
  /** A new lease token per batch (the instance's LeaseOwner); a random one when absent. */
  readonly newToken?: () => string;
  readonly room?: QueueRoom;
}

const MIN_TIMER_MS = 250;
/** A batch whose lease was last renewed this share of the lease ago stops sending: its lease may lapse before what it sends is recorded. */
const LEASE_SAFE_SHARE = 0.7;

/**
 * Drains a leased queue: leases a bounded batch, works it while the lease
 * is renewed, settles it, and goes on while batches come back full. Drains
 * never overlap: a wake-up during one asks for another pass after it.
 * Between drains a timer wakes it when the next retry or lapsed lease
 * falls due. stop() waits for the batches under way, at most a grace
 * period: work that ignores the abort signal cannot hold up shutdown (its
 * rows are due again after their lease).
 */
export class QueueWorker<TItem, TOutcome> {
  readonly #options: QueueWorkerOptions<TItem, TOutcome>;
  readonly #abort = new AbortController();
  #loop: Promise<void> | null = null;
  /** Batches its owner leased and started (work()), still under way. */
  readonly #outside = new Set<Promise<unknown>>();
  #requested = false;
  #started = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: QueueWorkerOptions<TItem, TOutcome>) {
    this.#options = options;
  }

  get name(): string {
    return this.#options.name;
  }

  get stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  /** This instance works the queue: wake-ups start drains, and due times arm a timer. */
  start(): void {
    this.#started = true;
  }

  /** New work was committed (here, or on another instance): drain soon, in the background. */
  wake(): void {
    if (this.#started && !this.stopped) void this.drain();
  }

  /** Drains until nothing is due; resolves when a pass that began after this call has ended. Never rejects. */
  drain(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.#requested = true;
    this.#loop ??= this.#run().finally(() => {
      this.#loop = null;
    });
    return this.#loop;
  }

  /** Waits for the drain under way, then drains what is left. */
  async settle(): Promise<void> {
    while (this.#loop) await this.#loop;
    await this.drain();
  }

  /** Works a batch its caller leased under `token` (chosen rows: /test, announcements); returns their outcomes. */
  async work(batch: readonly TItem[], token: string): Promise<readonly TOutcome[]> {
    if (batch.length === 0) return [];
    const working = this.#workAndSettle(batch, token);
    // Shutdown waits for these too: their rows are leased, and settled only here.
    const tracked: Promise<unknown> = working
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => this.#outside.delete(tracked));
    this.#outside.add(tracked);
    return working;
  }

  async stop(graceMs = 10_000): Promise<void> {
    this.#abort.abort();
    clearTimeout(this.#timer);
    if (!this.#loop && this.#outside.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = await Promise.race([
      Promise.all([this.#loop, ...this.#outside]).then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (gaveUp)
      this.#options.log.warn({ queue: this.name }, 'shutdown: a batch was still running after the grace period; its rows are retaken after their lease');
  }

  async #run(): Promise<void> {
    // A drain() while the timer is armed (the loop still looks busy) asks for one more pass: it is never lost.
    do {
      while (this.#requested && !this.stopped) {
        this.#requested = false;
        try {
          await this.#drainOnce();
        } catch (err) {
          this.#options.log.error({ err, queue: this.name }, 'queue drain failed; the next sweep tries again');
        }
      }
      if (this.#started && !this.stopped) {
        await this.#armTimer().catch((err: unknown) => this.#options.log.warn({ err, queue: this.name }, 'next due time unknown'));
      }
    } while (this.#requested && !this.stopped);
  }

  async #drainOnce(): Promise<void> {
    const { store, batchSize, room } = this.#options;
    const limit = Math.max(1, this.#options.batchesInFlight ?? 1);
    const inFlight = new Set<Promise<unknown>>();
    let failure: unknown;
    while (!this.stopped && failure === undefined) {
      const token = this.#options.newToken?.() ?? randomUUID();
      await room?.acquire();
      const batch = await store.lease(batchSize, token).catch((err: unknown) => {
        room?.release();
        throw err;
      });
      if (batch.length === 0) {
        room?.release();
        break;
      }
      const working: Promise<unknown> = this.#workAndSettle(batch, token)
        .catch((err: unknown) => void (failure ??= err))
        .finally(() => {
          inFlight.delete(working);
          room?.release();
        });
      inFlight.add(working);
      if (batch.length < batchSize) break;
      if (!room && inFlight.size >= limit) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    if (failure !== undefined) throw failure;
  }

  async #workAndSettle(batch: readonly TItem[], token: string): Promise<readonly TOutcome[]> {
    const { store, leaseSeconds, log } = this.#options;
    const started = performance.now();
    // The batch stops when the service stops, or when its lease may have lapsed: renewals that could not reach the
    // database (a partition) leave the rows to whoever takes them next, and sending them here too would send them twice.
    const leaseMs = leaseSeconds * 1000;
    const batchAbort = new AbortController();
    const onStop = () => batchAbort.abort(this.#abort.signal.reason);
    this.#abort.signal.addEventListener('abort', onStop, { once: true });
    let lapse: NodeJS.Timeout | undefined;
    let done = false;
    const heldFrom = (renewedAt: number) => {
      // A renewal that answers after the batch ended arms nothing (it would warn of a lapse that cannot matter).
      if (done) return;
      clearTimeout(lapse);
      lapse = setTimeout(
        () => {
          log.warn({ queue: this.name, batch: batch.length }, "lease not renewed in time: this batch stops sending (its rows are another instance's now)");
          batchAbort.abort(new Error('lease not renewed in time'));
        },
        Math.max(0, renewedAt + leaseMs * LEASE_SAFE_SHARE - performance.now()),
      );
      lapse.unref();
    };
    heldFrom(started);
    const heartbeat = setInterval(() => {
      const renewedAt = performance.now();
      store.renew(token).then(
        () => heldFrom(renewedAt),
        (err: unknown) => log.warn({ err, queue: this.name }, 'lease renewal failed'),
      );
    }, leaseMs / 3);
    heartbeat.unref();
    let outcomes: readonly TOutcome[];
    try {
      outcomes = await this.#options.work(batch, batchAbort.signal, token);
    } finally {
      done = true;
      clearInterval(heartbeat);
      clearTimeout(lapse);
      this.#abort.signal.removeEventListener('abort', onStop);
    }
    await store.settle(token, outcomes);
    this.#options.onSettled?.(outcomes, batch);
    this.#logBatch(batch, outcomes, Math.round(performance.now() - started));
    return outcomes;
  }

  /** One line per batch, never per item: a big fan-out or a relay outage must not flood the log. */
  #logBatch(batch: readonly TItem[], outcomes: readonly TOutcome[], durationMs: number): void {
    const tally = this.#options.tally?.(outcomes, batch);
    const fields = { queue: this.name, batch: batch.length, ...tally?.counts, durationMs };
    if (tally && tally.failures > 0) this.#options.log.warn(fields, 'queue batch settled; some items not delivered');
    else this.#options.log.info(fields, 'queue batch settled');
  }

  async #armTimer(): Promise<void> {
    clearTimeout(this.#timer);
    const delay = await this.#options.store.nextDueInMs();
    if (delay === null || this.stopped || delay >= this.#options.sweepSeconds * 1000) return;
    this.#timer = setTimeout(() => this.wake(), Math.max(MIN_TIMER_MS, delay));
    this.#timer.unref();
  }
}
