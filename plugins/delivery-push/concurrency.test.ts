import { describe, expect, it } from 'vitest';
import { Limiter } from '#plugin-api';
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

  it('a shared limiter bounds the calls in flight across concurrent maps', async () => {
    const limiter = new Limiter(3);
    let inFlight = 0;
    let peak = 0;
    const slow = async (n: number) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1 + (n % 3)));
      inFlight--;
      return n;
    };
    const [a, b] = await Promise.all([
      mapWithConcurrency(Array.from({ length: 20 }, (_, i) => i), limiter, slow),
      mapWithConcurrency(Array.from({ length: 20 }, (_, i) => i + 100), limiter, slow),
    ]);
    expect(a).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(b).toEqual(Array.from({ length: 20 }, (_, i) => i + 100));
    expect(peak).toBe(3);
  });
});
