/**
 * A lane's requests in flight, shared by every batch it works at once: at
 * most `limit()` (read on each take, so it may change with the peer's
 * speed). A take waits until at least `min` are free and then takes as
 * many as there are, up to `max`, so a batch hands its target requests in
 * groups rather than one by one.
 */
export class RequestWindow {
  readonly #limit: () => number;
  #inUse = 0;
  readonly #waiting: Array<{ min: number; max: number; resolve: (taken: number) => void }> = [];

  constructor(limit: () => number) {
    this.#limit = limit;
  }

  get inUse(): number {
    return this.#inUse;
  }

  take(min: number, max: number): Promise<number> {
    const taken = this.#tryTake(min, max);
    if (taken > 0) return Promise.resolve(taken);
    return new Promise((resolve) => this.#waiting.push({ min, max, resolve }));
  }

  give(count: number): void {
    this.#inUse = Math.max(0, this.#inUse - count);
    while (this.#waiting.length > 0) {
      const next = this.#waiting[0]!;
      const taken = this.#tryTake(next.min, next.max);
      if (taken === 0) return;
      this.#waiting.shift();
      next.resolve(taken);
    }
  }

  #tryTake(min: number, max: number): number {
    const limit = Math.max(1, this.#limit());
    const free = limit - this.#inUse;
    if (free < Math.min(Math.max(1, min), limit)) return 0;
    const taken = Math.min(free, Math.max(1, max));
    this.#inUse += taken;
    return taken;
  }
}
