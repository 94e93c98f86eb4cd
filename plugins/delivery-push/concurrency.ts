import type { Limiter } from '#plugin-api';

/**
 * Runs `start(0…count-1)`, each once, with at most the limiter's room in
 * flight (shared with other calls), in index order; `start` calls
 * `finished` once when its item is done. One promise for the whole run,
 * resolved when every item has finished: no promise or closure per item
 * beyond what `start` makes. `start` must not throw.
 */
export function pump(count: number, limiter: Limiter, start: (index: number, finished: () => void) => void): Promise<void> {
  if (count === 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let next = 0;
    let done = 0;
    let waiting = false;
    const finished = () => {
      limiter.release();
      done += 1;
      if (done === count) resolve();
      else fill();
    };
    const run = () => {
      const index = next++;
      start(index, finished);
    };
    // Takes the room there is; when none, waits (once) for the next room freed, by this run or another.
    // Not re-entered: an item that finishes at once (inside `start`) leaves the loop below to go on, so the stack stays flat.
    let filling = false;
    const fill = () => {
      if (filling) return;
      filling = true;
      while (next < count && !waiting) {
        if (limiter.tryAcquire()) run();
        else {
          waiting = true;
          limiter.whenRoom(() => {
            waiting = false;
            run();
            fill();
          });
        }
      }
      filling = false;
    };
    fill();
  });
}

/**
 * How many publishes may wait behind each other on one connection: as many
 * as the server answers within half the timeout at its recent speed, so a
 * request at the back of the line is still answered in time and a server
 * that slows down is sent fewer at once; between 1 and `maxDepth`
 * (Notifications__Push__RequestsPerConnection). Without a measure yet:
 * `maxDepth`. Pure.
 */
export function depthPerConnection(latencyMs: number | undefined, timeoutMs: number, maxDepth: number): number {
  if (latencyMs === undefined || latencyMs <= 0) return maxDepth;
  return Math.max(1, Math.min(maxDepth, Math.floor(timeoutMs / 2 / latencyMs)));
}

/** A moving average of how long the server takes to answer, from the request's writing (each new measure weighs 1/20). */
export class AnswerTime {
  #average: number | undefined;

  get averageMs(): number | undefined {
    return this.#average;
  }

  add(ms: number): void {
    this.#average = this.#average === undefined ? ms : this.#average + (ms - this.#average) / 20;
  }
}
