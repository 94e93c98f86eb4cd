import { describe, expect, it } from 'vitest';
import { drainInBatches } from './drain-in-batches.ts';

/** A step that removes the next of `counts` (the rows a bounded DELETE found), recording the limits it was given. */
function steps(counts: number[]) {
  const limits: number[] = [];
  return {
    limits,
    step: async (limit: number) => {
      limits.push(limit);
      return counts.shift() ?? 0;
    },
  };
}

describe('drainInBatches', () => {
  it('deletes batch after batch until one removes fewer than a batch, and totals them', async () => {
    const { limits, step } = steps([10, 10, 3, 10]);
    expect(await drainInBatches(10, new AbortController().signal, step)).toBe(23);
    expect(limits).toEqual([10, 10, 10]);
  });

  it('stops after an empty batch', async () => {
    const { limits, step } = steps([10, 0]);
    expect(await drainInBatches(10, new AbortController().signal, step)).toBe(10);
    expect(limits).toHaveLength(2);
  });

  it('stops at shutdown, between batches', async () => {
    const shutdown = new AbortController();
    const { limits, step } = steps([10, 10, 10]);
    const aborting = async (limit: number) => {
      const removed = await step(limit);
      shutdown.abort();
      return removed;
    };
    expect(await drainInBatches(10, shutdown.signal, aborting)).toBe(10);
    expect(limits).toHaveLength(1);
  });
});
