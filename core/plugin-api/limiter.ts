/**
 * A bound on work in flight (a counting semaphore), shared by everything
 * that uses it: the push target's publishes across every batch the
 * dispatcher works at once, the dispatcher's batches taken over from the
 * fan-out. Waiters get the room in the order they asked.
 */
export class Limiter {
  /** Work in flight at most. */
  readonly limit: number;
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.limit = Math.max(1, limit);
  }

  /** Resolves once there is room, taken for the caller: `release` it when done. */
  async acquire(): Promise<void> {
    if (this.tryAcquire()) return;
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Calls `taken` once room is taken for it (at once when there is some): the callback form of `acquire`, for a caller that makes no promise per item. */
  whenRoom(taken: () => void): void {
    if (this.tryAcquire()) taken();
    else this.#waiting.push(taken);
  }

  /** Takes room when there is some now (true); never waits. */
  tryAcquire(): boolean {
    if (this.#active >= this.limit) return false;
    this.#active += 1;
    return true;
  }

  /** Hands the room to the next waiter, or frees it. Releasing room nobody took is a bug: it throws rather than let more work run than the limit. */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else if (this.#active > 0) this.#active -= 1;
    else throw new Error('Limiter.release() without a matching acquire');
  }
}
