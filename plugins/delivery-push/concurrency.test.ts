import { describe, expect, it } from 'vitest';
import { Limiter } from '#plugin-api';
import { pump } from './concurrency.ts';

/** Starts items that finish after a few milliseconds (or at once), recording the order and the peak in flight. */
function tracker(finishAtOnce: (index: number) => boolean = () => false) {
  let inFlight = 0;
  const seen = { started: [] as number[], peak: 0 };
  const start = (index: number, finished: () => void) => {
    seen.started.push(index);
    inFlight += 1;
    seen.peak = Math.max(seen.peak, inFlight);
    const end = () => {
      inFlight -= 1;
      finished();
    };
    if (finishAtOnce(index)) end();
    else setTimeout(end, 1 + (index % 3));
  };
  return { start, seen };
}

describe('pump', () => {
  it('starts every item once, in order, never more in flight than the limit', async () => {
    const { start, seen } = tracker();
    await pump(50, new Limiter(4), start);
    expect(seen.started).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(seen.peak).toBe(4);
  });

  it('resolves at once for no items, and takes no more room than there are items', async () => {
    const limiter = new Limiter(8);
    await pump(0, limiter, () => {
      throw new Error('no item to start');
    });
    const { start, seen } = tracker();
    await pump(2, limiter, start);
    expect(seen.peak).toBe(2);
    expect(limiter.tryAcquire()).toBe(true); // the room came back
  });

  it('a shared limiter bounds the items in flight across concurrent pumps', async () => {
    const limiter = new Limiter(3);
    const shared = tracker();
    await Promise.all([pump(20, limiter, shared.start), pump(20, limiter, shared.start)]);
    expect(shared.seen.started).toHaveLength(40);
    expect(shared.seen.peak).toBe(3);
  });

  it('items that finish at once (refused before any publish) keep the stack flat, however many', async () => {
    const { start, seen } = tracker(() => true);
    await pump(100_000, new Limiter(4), start);
    expect(seen.started).toHaveLength(100_000);
  });
});
