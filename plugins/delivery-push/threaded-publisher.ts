import { Worker } from 'node:worker_threads';
import type { Publisher, PublisherOptions } from './publisher.ts';
import type { PublishResult } from './publish-result.ts';

/**
 * The publisher spread over `threads` worker threads (publish-worker.ts),
 * each with its own pool of `connections / threads` connections: the HTTP
 * work (request writing, response parsing, their garbage) leaves the main
 * thread, which claims and settles. Sends of one turn of the event loop go
 * to one thread as one message, round-robin; results come back batched.
 */
export function createThreadedPublisher(options: PublisherOptions, threads: number): Publisher {
  const workers = Array.from(
    { length: threads },
    () =>
      new Worker(new URL('./publish-worker.ts', import.meta.url), {
        workerData: { ...options, connections: Math.max(1, Math.ceil(options.connections / threads)) },
      }),
  );
  const pending = new Map<number, (result: PublishResult) => void>();
  let nextId = 0;
  let nextWorker = 0;
  let queuedIds: number[] = [];
  let queuedBodies: string[] = [];
  let scheduled = false;
  const signals = new WeakSet<AbortSignal>();
  for (const worker of workers) {
    worker.unref();
    worker.on('message', (message: { type: string; ids?: number[]; results?: PublishResult[] }) => {
      if (message.type !== 'results') return;
      message.ids!.forEach((id, index) => {
        const done = pending.get(id);
        pending.delete(id);
        done?.(message.results![index]);
      });
    });
    worker.on('error', (err) => {
      // A thread that dies fails what it held as a network error: the dispatcher retries those.
      for (const [id, done] of pending) {
        pending.delete(id);
        done({ kind: 'network', code: 'WORKER', message: err.message });
      }
    });
  }
  const flush = () => {
    scheduled = false;
    workers[nextWorker].postMessage({ type: 'send', ids: queuedIds, bodies: queuedBodies });
    nextWorker = (nextWorker + 1) % workers.length;
    queuedIds = [];
    queuedBodies = [];
  };
  const send: Publisher['send'] = (body, signal, done) => {
    if (signal.aborted) return done({ kind: 'aborted' });
    if (!signals.has(signal)) {
      signals.add(signal);
      signal.addEventListener(
        'abort',
        () => {
          for (const worker of workers) worker.postMessage({ type: 'abort' });
        },
        { once: true },
      );
    }
    const id = nextId++;
    pending.set(id, done);
    queuedIds.push(id);
    queuedBodies.push(body);
    if (!scheduled) {
      scheduled = true;
      queueMicrotask(flush);
    }
  };
  return {
    send,
    publish: (body, signal) => new Promise((resolve) => send(JSON.stringify(body), signal, resolve)),
    close: async () => {
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve) => {
              const closed = (message: { type: string }) => {
                if (message.type !== 'closed') return;
                worker.off('message', closed);
                resolve();
              };
              worker.on('message', closed);
              worker.postMessage({ type: 'close' });
            }),
        ),
      );
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
