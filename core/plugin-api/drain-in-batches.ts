/**
 * Retention's loop, for core's tables and a plugin's: runs `step` (a
 * DELETE bounded to `limit` rows that returns how many it removed) until a
 * call removes fewer than a batch, so nothing is left, or the signal
 * aborts (shutdown). Bounded batches never hold long locks or large
 * transactions. Returns how many rows were removed in all.
 */
export async function drainInBatches(limit: number, signal: AbortSignal, step: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (let removed = limit; removed === limit && !signal.aborted; ) {
    removed = await step(limit);
    total += removed;
  }
  return total;
}
