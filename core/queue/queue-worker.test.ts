import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LeasedQueueStore } from '../plugin-api/queue-types.ts';
import { QueueWorker } from './queue-worker.ts';

/**
 * An in-memory queue whose items fall due at instants of the store's own
 * clock (a fake one here, as the outbox keeps its times on the service
 * clock): the worker must wake for the next one by the distance the store
 * gives, whatever the real time is.
 */
function memoryStore(clock: { now: number }) {
  const due = new Map<string, number>();
  const worked: string[] = [];
  const store: LeasedQueueStore<string, string> = {
    async lease(limit) {
      const ready = [...due]
        .filter(([, at]) => at <= clock.now)
        .slice(0, limit)
        .map(([item]) => item);
      for (const item of ready) due.delete(item);
      return ready;
    },
    async renew() {},
    async settle(_token, outcomes) {
      worked.push(...outcomes);
    },
    async nextDueInMs() {
      return due.size === 0 ? null : Math.min(...due.values()) - clock.now;
    },
  };
  return { store, due, worked };
}

function workerOn(store: LeasedQueueStore<string, string>, sweepSeconds: number) {
  return new QueueWorker<string, string>({
    name: 'test.queue',
    store,
    work: async (batch) => batch,
    batchSize: 10,
    leaseSeconds: 30,
    sweepSeconds,
    log: pino({ level: 'silent' }),
  });
}

describe('QueueWorker: the timer for the next due item', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('wakes when the next item falls due by the store clock, however far that clock is from the real one', async () => {
    vi.useFakeTimers();
    // A year ahead of the real clock: an instant compared with the real time would look a year away (left to the sweep).
    const clock = { now: Date.now() + 365 * 86_400_000 };
    const { store, due, worked } = memoryStore(clock);
    const worker = workerOn(store, 60);
    worker.start();
    due.set('later', clock.now + 5_000);
    await worker.drain();
    expect(worked).toEqual([]);

    clock.now += 4_000;
    await vi.advanceTimersByTimeAsync(4_000);
    expect(worked).toEqual([]);
    clock.now += 1_000;
    await vi.advanceTimersByTimeAsync(1_000);
    await worker.settle();
    expect(worked).toEqual(['later']);
    await worker.stop();
  });

  it('leaves an item due after the sweep period to the sweep (no timer)', async () => {
    vi.useFakeTimers();
    const clock = { now: 0 };
    const { store, due, worked } = memoryStore(clock);
    const worker = workerOn(store, 60);
    worker.start();
    due.set('much later', 120_000);
    await worker.drain();
    clock.now = 120_000;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(worked).toEqual([]);
    await worker.drain();
    expect(worked).toEqual(['much later']);
    await worker.stop();
  });

  it('waits at least the shortest timer (250 ms) for an item due sooner, and asks the store once per drain', async () => {
    vi.useFakeTimers();
    const clock = { now: 0 };
    const { store, due, worked } = memoryStore(clock);
    let asked = 0;
    const counting: LeasedQueueStore<string, string> = {
      ...store,
      nextDueInMs: () => {
        asked += 1;
        return store.nextDueInMs();
      },
    };
    const worker = workerOn(counting, 60);
    worker.start();
    due.set('lapsed', 0);
    clock.now = -1; // not leasable yet at the first drain; due by the time the timer fires
    await worker.drain();
    expect(worked).toEqual([]);
    clock.now = 0;
    await vi.advanceTimersByTimeAsync(249);
    expect(worked).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await worker.settle();
    expect(worked).toEqual(['lapsed']);
    // Three drains (the first, the timer's, settle's), each asking once when it ends.
    expect(asked).toBe(3);
    await worker.stop();
  });

  it('a drain asked for while the last pass asks for the next due time still gets a pass of its own (a wake-up is never lost)', async () => {
    const clock = { now: 0 };
    const { store, due, worked } = memoryStore(clock);
    let release: () => void = () => {};
    let askedOnce = false;
    const asked = new Promise<void>((resolve) => {
      release = resolve;
    });
    let answer: (() => void) | undefined;
    // The first drain's closing question is held open: the item committed meanwhile must not wait for the sweep.
    const slow: LeasedQueueStore<string, string> = {
      ...store,
      nextDueInMs: async () => {
        if (!askedOnce) {
          askedOnce = true;
          release();
          await new Promise<void>((resolve) => {
            answer = resolve;
          });
        }
        return store.nextDueInMs();
      },
    };
    const worker = workerOn(slow, 60);
    worker.start();
    const first = worker.drain();
    await asked;
    due.set('committed meanwhile', 0);
    const second = worker.drain();
    answer?.();
    await first;
    await second;
    expect(worked).toEqual(['committed meanwhile']);
    await worker.stop();
  });
});

describe('QueueWorker: a lease it cannot renew', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("stops a batch's sending once its renewals have not reached the store for most of the lease, and goes on while they do", async () => {
    vi.useFakeTimers();
    let reachable = true;
    const stops: number[] = [];
    const store: LeasedQueueStore<string, string> = {
      lease: async () => [],
      // Out of reach, a renewal never answers (a partition drops the packets; nothing fails).
      renew: () => (reachable ? Promise.resolve() : new Promise(() => undefined)),
      settle: async () => undefined,
      nextDueInMs: async () => null,
    };
    const worker = new QueueWorker<string, string>({
      name: 'test.lease',
      store,
      work: (batch, signal) =>
        new Promise((resolve) => {
          const started = performance.now();
          signal.addEventListener('abort', () => {
            stops.push(performance.now() - started);
            resolve(batch.map(() => 'deferred'));
          });
        }),
      batchSize: 10,
      leaseSeconds: 30,
      sweepSeconds: 60,
      log: pino({ level: 'silent' }),
    });
    const working = worker.work(['a'], 'token-1');
    // Renewed every 10 s: a minute later it is still sending.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(stops).toEqual([]);
    // Cut off at 60 s: the last renewal that answered was at 60 s, so it stops 70% of the lease (21 s) after it.
    reachable = false;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(stops).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await working).toEqual(['deferred']);
    expect(stops).toEqual([81_000]);
  });
});
