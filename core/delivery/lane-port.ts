import type { LanePort } from '../plugin-api/core-ports.ts';
import type { LaneControl } from './lane-control.ts';

/** How long a wait for the lane's slot looks again at a pause (another instance may end or extend it). */
const PAUSE_RECHECK_MS = 1000;

/**
 * A lane as its plugin's own sends reach it (the email outbox, the SMS
 * verification texts): they keep to the lane's rate and pause as the
 * lane's deliveries do, so the peer sees one pace.
 */
export function createLanePort(control: LaneControl): LanePort {
  return {
    pausedForMs: () => control.pausedForMs(),
    async pause(retryAfterSeconds, because = 'the peer said to slow down') {
      await control.pause(retryAfterSeconds, because);
    },
    async nextSlot(signal) {
      for (;;) {
        if (signal?.aborted) return false;
        const paused = control.pausedForMs();
        if (paused > 0) {
          await sleep(Math.min(paused, PAUSE_RECHECK_MS), signal);
          continue;
        }
        if (control.ratePerSecond <= 0) return true;
        const slots = await control.slots(1);
        if (!slots) continue;
        await sleep(slots[0]!, signal);
        return !signal?.aborted;
      }
    },
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
