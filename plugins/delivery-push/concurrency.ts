import { Limiter } from '#plugin-api';

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
