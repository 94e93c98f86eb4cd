import type { DeliveryOutcome } from '#plugin-api';

/** What one publish came to, before it is judged. */
export type PublishResult =
  /**
   * The server answered; `code`/`error` from ntfy's error body `{code, http,
   * error}` when it has one, its Retry-After in seconds when it sent one,
   * and how long it took from the request's writing (`wireMs`).
   */
  | {
      readonly kind: 'answered';
      readonly status: number;
      readonly code?: number;
      readonly error?: string;
      readonly retryAfterSeconds?: number;
      readonly wireMs?: number;
    }
  | { readonly kind: 'timeout'; readonly seconds: number }
  /** Stopped by the dispatcher's signal (shutdown): not a failure of the server. */
  | { readonly kind: 'aborted' }
  | { readonly kind: 'network'; readonly code: string; readonly message: string };

const DAILY_QUOTA = 42908;
const TOO_MANY_AUTH_FAILURES = 42909;

/** ntfy resets its daily message quota at midnight UTC. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** `push server 403 (40301 forbidden)`: status and the server's code, never request data. */
export function describeAnswer(result: Extract<PublishResult, { kind: 'answered' }>): string {
  const detail = [result.code, result.error].filter((part) => part !== undefined && part !== '').join(' ');
  return detail === '' ? `push server ${result.status}` : `push server ${result.status} (${detail})`;
}

/**
 * Judges a publish (push-server.md, "What a publisher must do"): 2xx is
 * delivered; a 429 (but the daily quota and auth-failure codes) says to
 * slow down: the lane pauses for its Retry-After and the delivery waits
 * without an attempt counted; 5xx, timeouts and connection errors are
 * retried; every other answer is permanent. The daily quota retries at the
 * next UTC midnight, when the server resets it.
 */
export function outcomeOf(result: PublishResult, now: Date): DeliveryOutcome {
  switch (result.kind) {
    case 'timeout':
      return { kind: 'retry', reason: `push server did not answer within ${result.seconds} s` };
    case 'aborted':
      return { kind: 'retry', reason: 'publish interrupted by shutdown' };
    case 'network':
      return { kind: 'retry', reason: `push server unreachable: ${result.code} (${result.message})` };
    case 'answered': {
      const { status, code } = result;
      if (status >= 200 && status < 300) return { kind: 'delivered' };
      const reason = describeAnswer(result);
      if (status === 429 && code === DAILY_QUOTA) return { kind: 'retry', reason, notBefore: nextUtcMidnight(now) };
      if (status === 429 && code === TOO_MANY_AUTH_FAILURES) return { kind: 'failed', reason };
      if (status === 429)
        return result.retryAfterSeconds === undefined
          ? { kind: 'slowDown', reason }
          : { kind: 'slowDown', reason, retryAfterSeconds: result.retryAfterSeconds };
      if (status >= 500) return { kind: 'retry', reason };
      return { kind: 'failed', reason };
    }
  }
}
