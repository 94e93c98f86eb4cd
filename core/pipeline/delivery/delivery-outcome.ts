import type { DeliveryOutcome } from '../../plugin-api/delivery-types.ts';
import { nextAttemptAt, type RetrySettings } from './retry-policy.ts';

/** What the ledger records of one attempt (status `queued`: a transactional target took it, and settles it later). */
export interface SettledDelivery {
  readonly id: number;
  readonly status: 'delivered' | 'retrying' | 'failed' | 'queued';
  /**
   * A retry's wait, in seconds from when it is recorded: the ledger adds it
   * to the database's clock, the one that decides what is due (a service
   * whose clock is off by hours would otherwise hold a retry for hours).
   */
  readonly retryInSeconds: number | null;
  readonly error: string | null;
  /** Already recorded while its batch was still under way (settle-as-you-go): the batch's settle skips it. */
  readonly recorded?: boolean;
}

/**
 * Judges a target's answer to attempt number `attempt` of a ledger row:
 * delivered; failed for good (a permanent refusal, or the attempts spent);
 * or retrying after the backoff (or the target's `notBefore`, when later).
 * Pure: the clock and randomness are inputs.
 */
export function judgeDelivery(id: number, attempt: number, outcome: DeliveryOutcome, now: Date, random: number, retry: RetrySettings): SettledDelivery {
  if (outcome.kind === 'delivered') return { id, status: 'delivered', retryInSeconds: null, error: null };
  if (outcome.kind === 'failed') return { id, status: 'failed', retryInSeconds: null, error: outcome.reason };
  const next = nextAttemptAt(attempt, now, random, retry, outcome.notBefore);
  return next
    ? { id, status: 'retrying', retryInSeconds: Math.max(0, (next.getTime() - now.getTime()) / 1000), error: outcome.reason }
    : { id, status: 'failed', retryInSeconds: null, error: `gave up after ${attempt} attempts: ${outcome.reason}` };
}
