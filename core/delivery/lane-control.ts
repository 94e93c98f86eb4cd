import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import type { Wakeups } from '../queue/wakeups.ts';
import { pauseLane, pausedForMs, takeSlots } from './lane-store.ts';

/** `Sms` → `lane_sms`: the channel on which a lane's pause is told to every instance. */
export const laneChannel = (provider: string) => `lane_${provider.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`.slice(0, 63);

/**
 * What keeps a lane to its peer's pace on every instance together: its
 * rate (send slots taken from one row of the database, so instances never
 * exceed it together) and its pause (a peer said to slow down: stored
 * there, and told to every instance at once, which then stop handing the
 * peer anything until it ends). Each instance also keeps what it knows of
 * the pause, so checking it costs nothing.
 */
export class LaneControl {
  readonly provider: string;
  /** Messages a second, across every instance; 0: none. */
  readonly ratePerSecond: number;
  readonly #db: Knex;
  readonly #wakeups: Wakeups;
  readonly #log: FastifyBaseLogger;
  /** When this instance knows the pause ends (performance.now() milliseconds). */
  #pausedUntil = 0;
  #unlisten: (() => void) | undefined;
  #resumed: (() => void) | undefined;

  constructor(options: { db: Knex; provider: string; ratePerSecond: number; wakeups: Wakeups; log: FastifyBaseLogger }) {
    this.provider = options.provider;
    this.ratePerSecond = options.ratePerSecond;
    this.#db = options.db;
    this.#wakeups = options.wakeups;
    this.#log = options.log;
  }

  /** Listens for pauses other instances record; `resumed` is called when a pause this instance knew of has ended. */
  listen(resumed: () => void): void {
    this.#resumed = resumed;
    this.#unlisten ??= this.#wakeups.listen(laneChannel(this.provider), () => void this.refresh());
  }

  close(): void {
    this.#unlisten?.();
    this.#unlisten = undefined;
  }

  /** Milliseconds until the pause this instance knows of ends (0: not paused). */
  pausedForMs(): number {
    return Math.max(0, this.#pausedUntil - performance.now());
  }

  /** Pauses the lane everywhere (its peer said to slow down); returns the milliseconds until it ends. */
  async pause(retryAfterSeconds: number | undefined, because: string): Promise<number> {
    // Known here at once, before the database answers: this instance hands the peer nothing more meanwhile.
    this.#know(1000 * (retryAfterSeconds ?? 1));
    const ms = await pauseLane(this.#db, this.provider, retryAfterSeconds, because);
    this.#know(ms);
    if (ms > 0) {
      this.#log.warn({ provider: this.provider, pauseSeconds: Math.round(ms / 100) / 10, because }, 'delivery lane paused: its peer said to slow down');
      await this.#wakeups.notify(laneChannel(this.provider)).catch((err: unknown) => this.#log.warn({ err }, 'could not tell other instances of the pause'));
    }
    return ms;
  }

  /** Reads the pause again (another instance recorded one). */
  async refresh(): Promise<void> {
    this.#know(await pausedForMs(this.#db, this.provider).catch(() => this.pausedForMs()));
  }

  /**
   * Takes `count` send slots at the lane's rate: the milliseconds from now
   * at which each may go, or null while the lane is paused.
   */
  async slots(count: number): Promise<number[] | null> {
    const asked = performance.now();
    const first = await takeSlots(this.#db, this.provider, count, this.ratePerSecond);
    if (first === null) {
      await this.refresh();
      return null;
    }
    // The database counted from its own now, about halfway through the round trip: counted from here, that much
    // less (a slow answer would otherwise make every send of this instance late by it, and bunch with the others').
    const answered = performance.now();
    const start = first - (answered - asked) / 2;
    const step = 1000 / this.ratePerSecond;
    return Array.from({ length: count }, (_, index) => Math.max(0, start + index * step));
  }

  /** How late a send may go after its slot before the slot counts as lost (a later send would bunch with the next ones). */
  lateAfterMs(): number {
    return this.ratePerSecond > 0 ? Math.max(1000 / this.ratePerSecond, 50) : Infinity;
  }

  #know(ms: number): void {
    const until = performance.now() + ms;
    if (ms > 0 && until > this.#pausedUntil) {
      this.#pausedUntil = until;
      const timer = setTimeout(() => {
        if (this.pausedForMs() === 0) this.#resumed?.();
      }, ms + 5);
      timer.unref();
    } else if (ms === 0) {
      this.#pausedUntil = 0;
    }
  }
}
