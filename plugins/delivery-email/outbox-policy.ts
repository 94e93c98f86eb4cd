/**
 * The outbox's decisions, pure: what a send attempt's result makes of an
 * item, and when it may be tried again. The clock and randomness are inputs.
 *
 *   pending ─claim→ processing ─accepted→ sent
 *                       │ └─refused for good (5xx on the message)→ dead
 *                       ├─transient failure→ failed ─after backoff, claim→ processing …
 *                       └─told to slow down (421/451/454)→ pending again, the attempt not counted
 *   after MaxAttempts: dead. A processing item whose lease lapsed (a crash) is claimed again.
 */
import { backoffSeconds, type RetrySettings } from '#plugin-api';

export const OUTBOX_STATES = ['pending', 'processing', 'sent', 'failed', 'dead'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

// The backoff is core's (the same rule as push retries), re-exported for this plugin's callers.
export { backoffSeconds, type RetrySettings };

/** What the relay made of one message (`slowDown`: it is throttling: the lane pauses). */
export type SendResult =
  | { readonly kind: 'accepted'; readonly response: string }
  | { readonly kind: 'rejected'; readonly permanent: boolean; readonly reason: string; readonly slowDown?: boolean };

export type NextState =
  | { readonly state: 'sent' }
  | { readonly state: 'failed'; readonly dueAt: Date; readonly error: string }
  | { readonly state: 'dead'; readonly error: string }
  /** Pending again, its attempt not counted: the relay said to slow down, so this is no failure of the message. */
  | { readonly state: 'deferred'; readonly dueAt: Date; readonly error: string };

/** The state after attempt number `attempt` (1 on the first try) ended with `result`; a deferred one waits `pausedSeconds` (the lane's pause). */
export function nextState(attempt: number, result: SendResult, now: Date, random: number, settings: RetrySettings, pausedSeconds = 1): NextState {
  if (result.kind === 'accepted') return { state: 'sent' };
  if (result.slowDown) return { state: 'deferred', dueAt: new Date(now.getTime() + Math.max(1, pausedSeconds) * 1000), error: result.reason };
  if (result.permanent) return { state: 'dead', error: result.reason };
  if (attempt >= settings.maxAttempts) return { state: 'dead', error: `gave up after ${attempt} attempts: ${result.reason}` };
  return { state: 'failed', dueAt: new Date(now.getTime() + backoffSeconds(attempt, random, settings) * 1000), error: result.reason };
}

/**
 * A claim counts as an attempt, so an item whose sending crashes the
 * process every time still ends: claimed beyond MaxAttempts (its lease
 * lapsed on the last one), it is dead without another send.
 */
export function attemptsExhausted(attempt: number, settings: RetrySettings): boolean {
  return attempt > settings.maxAttempts;
}

/** The parts of a nodemailer error the decision looks at (never its message text beyond the relay's reply). */
export interface SmtpErrorLike {
  readonly code?: string;
  readonly responseCode?: number;
  readonly command?: string;
  readonly message?: string;
}

/** SMTP replies a relay gives when it throttles: service closing (421), try again later (451), temporary authentication refusal (454). */
const THROTTLING = new Set([421, 451, 454]);

/**
 * A relay's 5xx reply to the envelope or the message (mailbox unknown,
 * message refused) is final: sending it again gives the same answer. A
 * 421, 451 or 454 says to slow down (the lane pauses on every instance,
 * and the message waits without an attempt counted). Every other failure
 * is transient: other 4xx replies, connection and timeout errors, and
 * refused authentication (a configuration fault an operator fixes; the
 * items wait in `failed` meanwhile and do not all turn dead at once).
 */
export function classifySendError(error: SmtpErrorLike): { permanent: boolean; slowDown: boolean; reason: string } {
  const code = error.code ?? 'ERROR';
  const status = typeof error.responseCode === 'number' ? error.responseCode : undefined;
  const permanent = status !== undefined && status >= 500 && status < 600 && (code === 'EENVELOPE' || code === 'EMESSAGE');
  const where = error.command ? ` on ${error.command}` : '';
  return {
    permanent,
    slowDown: status !== undefined && THROTTLING.has(status),
    reason: status !== undefined ? `SMTP ${status}${where} (${code})` : `SMTP ${code}${where}`,
  };
}
