/**
 * A publishing thread (Notifications__Push__Threads > 0): the same
 * publisher as in the main thread, fed batches of serialized bodies and
 * answering with their results in batches. Messages:
 * in  `{ type: 'send', ids, bodies }` · `{ type: 'abort' }` · `{ type: 'close' }`
 * out `{ type: 'results', ids, results }` · `{ type: 'closed' }`
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createPublisher, type PublisherOptions } from './publisher.ts';
import type { PublishResult } from './publish-result.ts';

const port = parentPort!;
const publisher = createPublisher(workerData as PublisherOptions);
let controller = new AbortController();
let doneIds: number[] = [];
let doneResults: PublishResult[] = [];
let flushing = false;

// Results go back once per turn of this thread's event loop, not one message each.
const flush = () => {
  flushing = false;
  port.postMessage({ type: 'results', ids: doneIds, results: doneResults });
  doneIds = [];
  doneResults = [];
};

port.on('message', (message: { type: 'send'; ids: number[]; bodies: string[] } | { type: 'abort' } | { type: 'close' }) => {
  if (message.type === 'send') {
    const { signal } = controller;
    message.ids.forEach((id, index) => {
      publisher.send(message.bodies[index], signal, (result) => {
        doneIds.push(id);
        doneResults.push(result);
        if (!flushing) {
          flushing = true;
          setImmediate(flush);
        }
      });
    });
  } else if (message.type === 'abort') {
    controller.abort();
    controller = new AbortController();
  } else {
    void publisher.close().then(() => port.postMessage({ type: 'closed' }));
  }
});
