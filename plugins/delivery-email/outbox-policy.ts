/**
 * The outbox's decisions, pure: what a send attempt's result makes of an
 * item, and when it may be tried again. The clock and randomness are inputs.
 *
 *   pending ─claim→ processing ─accepted→ sent
 *                       │ └─refused for good (5xx on the message)→ dead
 *                       └─transient failure→ failed ─after backoff, claim→ processing …
 *   after MaxAttempts: dead. A processing item whose lease lapsed (a crash) is claimed again.
 */
import { backoffSeconds, type RetrySettings } from '#plugin-api';

export const OUTBOX_STATES = ['pending', 'processing', 'sent', 'failed', 'dead'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

// The backoff is core's (the same rule as push retries), re-exported for this plugin's callers.
export { backoffSeconds, type RetrySettings };

/** What the relay made of one message. */
export type SendResult =
  | { readonly kind: 'accepted'; readonly response: string }
  | { readonly kind: 'rejected'; readonly permanent: boolean; readonly reason: string };

export type NextState =
  | { readonly state: 'sent' }
  | { readonly state: 'failed'; readonly dueAt: Date; readonly error: string }
  | { readonly state: 'dead'; readonly error: string };


/** The state after attempt number `attempt` (1 on the first try) ended with `result`. */
export function nextState(attempt: number, result: SendResult, now: Date, random: number, settings: RetrySettings): NextState {
  if (result.kind === 'accepted') return { state: 'sent' };
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

/**
 * A relay's 5xx reply to the envelope or the message (mailbox unknown,
 * message refused) is final: sending it again gives the same answer. Every
 * other failure is transient: 4xx replies, connection and timeout errors,
 * and refused authentication (a configuration fault an operator fixes; the
 * items wait in `failed` meanwhile and do not all turn dead at once).
 */
export function classifySendError(error: SmtpErrorLike): { permanent: boolean; reason: string } {
  const code = error.code ?? 'ERROR';
  const status = typeof error.responseCode === 'number' ? error.responseCode : undefined;
  const permanent = status !== undefined && status >= 500 && status < 600 && (code === 'EENVELOPE' || code === 'EMESSAGE');
  const where = error.command ? ` on ${error.command}` : '';
  return { permanent, reason: status !== undefined ? `SMTP ${status}${where} (${code})` : `SMTP ${code}${where}` };
}
