/**
 * A bound on calls in flight, shared by every batch that uses it: the push
 * target's publishes stay within Connections × RequestsPerConnection
 * however many batches the dispatcher works at once, so the pool's queue,
 * the timers and the memory they hold stay bounded too.
 */
export class Limiter {
  /** Calls in flight at most. */
  readonly limit: number;
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.limit = Math.max(1, limit);
  }

  async acquire(): Promise<void> {
    if (this.#active < this.limit) {
      this.#active += 1;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Hands the slot to the next waiter, or frees it. */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#active -= 1;
  }
}

/**
 * Maps items with at most `limit` calls in flight (a number, or a Limiter
 * shared with other calls), results in input order. A few workers pull
 * the next index, so a batch of 500 costs 500 calls and at most `limit`
 * loops, not 500 queued closures. `fn` must not throw.
 */
export async function mapWithConcurrency<T, R>(items: readonly T[], limit: number | Limiter, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const limiter = typeof limit === 'number' ? new Limiter(limit) : limit;
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      await limiter.acquire();
      try {
        results[index] = await fn(items[index], index);
      } finally {
        limiter.release();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limiter.limit, items.length)) }, worker));
  return results;
}
