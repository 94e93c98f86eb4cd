import type { FastifyBaseLogger } from 'fastify';
import { AsyncTask, SimpleIntervalJob, type ToadScheduler } from 'toad-scheduler';
import type { WorkerDefinition } from '../plugin-api/worker-types.ts';
import { HEARTBEAT_MS, type WorkerLeases } from './worker-leases.ts';

interface Registered {
  definition: WorkerDefinition;
  running: Promise<void> | null;
}

/**
 * Runs plugin workers on @fastify/schedule's toad-scheduler. An iteration
 * that throws is logged and the next tick runs; a worker never overlaps
 * itself; exclusive workers also take a cluster lease. stop() ends the
 * timers, aborts the signal and waits (bounded) for running iterations.
 */
export class WorkerScheduler {
  readonly #scheduler: ToadScheduler;
  readonly #leases: WorkerLeases;
  readonly #log: FastifyBaseLogger;
  readonly #workers = new Map<string, Registered>();
  readonly #abort = new AbortController();

  constructor(scheduler: ToadScheduler, leases: WorkerLeases, log: FastifyBaseLogger) {
    this.#scheduler = scheduler;
    this.#leases = leases;
    this.#log = log;
  }

  get names(): string[] {
    return [...this.#workers.keys()];
  }

  register(definition: WorkerDefinition): void {
    if (this.#workers.has(definition.name)) throw new Error(`worker "${definition.name}" is registered twice`);
    if (!(definition.intervalSeconds >= 1)) throw new Error(`worker "${definition.name}" needs intervalSeconds >= 1`);
    const entry: Registered = { definition, running: null };
    this.#workers.set(definition.name, entry);
    const task = new AsyncTask(definition.name, () => this.#tick(entry));
    this.#scheduler.addSimpleIntervalJob(
      new SimpleIntervalJob({ seconds: definition.intervalSeconds, runImmediately: true }, task, { id: definition.name, preventOverrun: true }),
    );
  }

  /**
   * Runs a fresh iteration now, after the one under way (if any) has ended,
   * and resolves when it ends. `force` skips the period gate of an
   * exclusive worker (not its lease: another instance's run still wins).
   */
  async runNow(name: string, options: { force?: boolean } = {}): Promise<void> {
    const entry = this.#workers.get(name);
    if (!entry) throw new Error(`no worker "${name}"`);
    while (entry.running) await entry.running;
    return this.#tick(entry, options.force === true);
  }

  #tick(entry: Registered, force = false): Promise<void> {
    if (this.#abort.signal.aborted) return Promise.resolve();
    if (entry.running) return entry.running;
    entry.running = this.#iterate(entry.definition, force).finally(() => {
      entry.running = null;
    });
    return entry.running;
  }

  async #iterate(definition: WorkerDefinition, force: boolean): Promise<void> {
    const log = this.#log.child({ worker: definition.name });
    const exclusive = definition.exclusive !== false;
    let heartbeat: NodeJS.Timeout | undefined;
    try {
      if (exclusive) {
        if (!(await this.#leases.tryAcquire(definition.name, definition.intervalSeconds, force))) return;
        heartbeat = setInterval(() => {
          this.#leases.heartbeat(definition.name).catch((err: unknown) => log.warn({ err }, 'worker lease heartbeat failed'));
        }, HEARTBEAT_MS);
        heartbeat.unref();
      }
    } catch (err) {
      log.error({ err }, 'worker lease could not be taken; next tick tries again');
      return;
    }
    let failure: string | null = null;
    try {
      await definition.run({ signal: this.#abort.signal, log });
    } catch (err) {
      failure = (err as Error)?.message ?? String(err);
      log.error({ err }, 'worker iteration failed; the next tick runs as planned');
    } finally {
      clearInterval(heartbeat);
      if (exclusive) {
        await this.#leases.release(definition.name, failure).catch((err: unknown) => log.warn({ err }, 'worker lease release failed'));
      }
    }
  }

  async stop(timeoutMs = 10_000): Promise<void> {
    this.#scheduler.stop();
    this.#abort.abort();
    const running = [...this.#workers.values()].flatMap((entry) => (entry.running ? [entry.running] : []));
    if (running.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([Promise.allSettled(running).then(() => 'done' as const), timeout]);
    clearTimeout(timer);
    if (outcome === 'timeout') this.#log.warn({ workers: running.length }, 'shutdown: worker iterations still running after the grace period');
  }
}
