import { describe, expect, it } from 'vitest';
import { mapWithConcurrency } from './concurrency.ts';

describe('mapWithConcurrency', () => {
  it('keeps input order and never exceeds the limit', async () => {
    let inFlight = 0;
    let peak = 0;
    const results = await mapWithConcurrency(Array.from({ length: 50 }, (_, i) => i), 4, async (n) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, (n * 7) % 5));
      inFlight--;
      return n * 2;
    });
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => i * 2));
    expect(peak).toBe(4);
  });

  it('handles an empty list and a limit above the item count', async () => {
    expect(await mapWithConcurrency([], 8, async (n: number) => n)).toEqual([]);
    expect(await mapWithConcurrency([1, 2], 8, async (n) => n + 1)).toEqual([2, 3]);
  });
});
