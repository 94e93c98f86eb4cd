import type { DeliveryOutcome } from '#plugin-api';

/** What one call request to the gateway came to, before it is judged. */
export type CallResult =
  /** The gateway answered; `code` is Twilio's error code from the body `{code, message, status}` when it has one. */
  | { readonly kind: 'answered'; readonly status: number; readonly sid?: string; readonly code?: number; readonly retryAfterSeconds?: number }
  | { readonly kind: 'timeout'; readonly seconds: number }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'network'; readonly code: string };

/** Invalid 'To' number; a number that cannot be called (13224, 13225: not reachable or blocked): this call fails. */
const NOT_CALLABLE = new Set([21211, 13223, 13224, 13225, 21215]);

/** `voice gateway 400 (21211)`: status and Twilio's code, never the number or the text. */
const describe = (status: number, code?: number) => (code === undefined ? `voice gateway ${status}` : `voice gateway ${status} (${code})`);

/**
 * Judges a call request (pure): 2xx with a sid is delivered (the gateway
 * placed the call; whether it was answered comes in its status callback);
 * a number that cannot be called fails; 429 slows the lane down; 5xx,
 * 401/403, timeouts and connection errors are retried; any other answer fails.
 */
export function judgeCallResult(result: CallResult): { readonly outcome: DeliveryOutcome; readonly sid?: string } {
  switch (result.kind) {
    case 'timeout':
      return { outcome: { kind: 'retry', reason: `voice gateway did not answer within ${result.seconds} s` } };
    case 'aborted':
      return { outcome: { kind: 'retry', reason: 'call interrupted by shutdown' } };
    case 'network':
      return { outcome: { kind: 'retry', reason: `voice gateway unreachable: ${result.code}` } };
    case 'answered': {
      const { status, code } = result;
      if (status >= 200 && status < 300 && result.sid) return { outcome: { kind: 'delivered', detail: result.sid }, sid: result.sid };
      const reason = describe(status, code);
      if (code !== undefined && NOT_CALLABLE.has(code)) return { outcome: { kind: 'failed', reason } };
      if (status === 429) {
        return { outcome: { kind: 'slowDown', reason, ...(result.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: result.retryAfterSeconds }) } };
      }
      if (status >= 500 || status === 401 || status === 403) return { outcome: { kind: 'retry', reason } };
      return { outcome: { kind: 'failed', reason: status >= 200 && status < 300 ? `${reason}: answer without a sid` : reason } };
    }
  }
}

/** Call statuses that say nobody heard it: the delivery's later outcome is `undelivered`. */
export const NOT_HEARD: ReadonlySet<string> = new Set(['busy', 'no-answer', 'failed', 'canceled']);
