import { describe, expect, it } from 'vitest';
import { cachedLoader } from './scrape-cache.ts';

describe('figures read at scrape time', () => {
  it('are read once per period, and again after it', async () => {
    let now = 1000;
    let reads = 0;
    const read = cachedLoader(
      5000,
      async () => ++reads,
      () => now,
    );
    expect(await read()).toBe(1);
    now += 4999;
    expect(await read()).toBe(1);
    now += 1;
    expect(await read()).toBe(2);
  });

  it('share one read between scrapes that come together', async () => {
    let reads = 0;
    let release!: () => void;
    const read = cachedLoader(0, () => new Promise<number>((resolve) => (release = () => resolve(++reads))));
    const both = Promise.all([read(), read()]);
    release();
    expect(await both).toEqual([1, 1]);
  });

  it('keep no failed read: the next scrape reads again', async () => {
    let calls = 0;
    const read = cachedLoader(60_000, async () => {
      calls += 1;
      if (calls === 1) throw new Error('database down');
      return calls;
    });
    await expect(read()).rejects.toThrow('database down');
    expect(await read()).toBe(2);
  });
});
