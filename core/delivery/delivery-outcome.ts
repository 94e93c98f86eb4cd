import type { DeliveryOutcome } from '../plugin-api/delivery-types.ts';
import type { SettledDelivery } from '../ledger/index.ts';
import { nextAttemptAt, type RetrySettings } from '../plugin-api/retry-policy.ts';

export type { SettledDelivery };

/** A peer that says to slow down without saying for how long: the lane waits this long at first. */
export const DEFAULT_SLOW_DOWN_SECONDS = 1;

/**
 * Judges a target's answer to attempt number `attempt` of a ledger row:
 * delivered; failed for good (a permanent refusal, a destination gone, or
 * the attempts spent);
 * retrying after the backoff (or the target's `notBefore`, when later); or
 * deferred when the peer said to slow down: the row waits out the pause
 * and the attempt is not counted, so a rate limit alone never makes a
 * delivery fail. Pure: the clock and randomness are inputs.
 */
export function judgeDelivery(id: number, attempt: number, outcome: DeliveryOutcome, now: Date, random: number, retry: RetrySettings): SettledDelivery {
  if (outcome.kind === 'delivered') return { id, status: 'delivered', retryInSeconds: null, error: null };
  if (outcome.kind === 'failed') {
    return { id, status: 'failed', retryInSeconds: null, error: outcome.reason, ...(outcome.gone ? { gone: { code: outcome.code ?? null } } : {}) };
  }
  if (outcome.kind === 'slowDown') return deferred(id, outcome.retryAfterSeconds ?? DEFAULT_SLOW_DOWN_SECONDS, outcome.reason);
  const next = nextAttemptAt(attempt, now, random, retry, outcome.notBefore);
  return next
    ? { id, status: 'retrying', retryInSeconds: Math.max(0, (next.getTime() - now.getTime()) / 1000), error: outcome.reason }
    : { id, status: 'failed', retryInSeconds: null, error: `gave up after ${attempt} attempts: ${outcome.reason}` };
}

/** A row that waits again without its attempt counted (its lane is paused, or it was never handed to the peer). */
export function deferred(id: number, waitSeconds: number, reason: string): SettledDelivery {
  return { id, status: 'deferred', retryInSeconds: Math.max(0, waitSeconds), error: reason };
}
