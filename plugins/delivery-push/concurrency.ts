import { Limiter } from '#plugin-api';

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
