import { describe, expect, it } from 'vitest';
import { Limiter } from './limiter.ts';

describe('Limiter', () => {
  it('gives room up to its limit, then makes callers wait, first come first served', async () => {
    const limiter = new Limiter(2);
    await limiter.acquire();
    expect(limiter.tryAcquire()).toBe(true);
    expect(limiter.tryAcquire()).toBe(false);
    const order: string[] = [];
    const first = limiter.acquire().then(() => order.push('first'));
    const second = limiter.acquire().then(() => order.push('second'));
    await Promise.resolve();
    expect(order).toEqual([]);
    limiter.release();
    await first;
    expect(order).toEqual(['first']);
    // The room went to the waiter: still full for a caller that does not wait.
    expect(limiter.tryAcquire()).toBe(false);
    limiter.release();
    await second;
    expect(order).toEqual(['first', 'second']);
    limiter.release();
    limiter.release();
    expect(limiter.tryAcquire()).toBe(true);
    expect(limiter.tryAcquire()).toBe(true);
    expect(limiter.tryAcquire()).toBe(false);
  });

  it('refuses a release nobody acquired (the limit would no longer hold)', () => {
    const limiter = new Limiter(1);
    expect(() => limiter.release()).toThrow(/without a matching acquire/);
    expect(limiter.tryAcquire()).toBe(true);
    expect(limiter.tryAcquire()).toBe(false);
  });

  it('has room for at least one', () => {
    const limiter = new Limiter(0);
    expect(limiter.limit).toBe(1);
    expect(limiter.tryAcquire()).toBe(true);
    expect(limiter.tryAcquire()).toBe(false);
  });
});

describe('Limiter.whenRoom', () => {
  it('calls back at once when there is room, else with the room a release frees, in the order asked', () => {
    const limiter = new Limiter(1);
    const calls: string[] = [];
    limiter.whenRoom(() => calls.push('first'));
    limiter.whenRoom(() => calls.push('second'));
    limiter.whenRoom(() => calls.push('third'));
    expect(calls).toEqual(['first']);
    limiter.release();
    expect(calls).toEqual(['first', 'second']);
    limiter.release();
    limiter.release();
    expect(calls).toEqual(['first', 'second', 'third']);
    expect(limiter.tryAcquire()).toBe(true);
  });
});
