import type { DeliveryOutcome, OutboundResult } from '#plugin-api';

/** What one request to a push service came to, before it is judged. */
export type PushServiceResult = OutboundResult;

export interface PushServiceVerdict {
  readonly outcome: DeliveryOutcome;
  /** 404 or 410: the browser's subscription is gone (unsubscribed, expired). */
  readonly stop: boolean;
}

/**
 * Judges a push (pure): 2xx delivered (to the push service); 404 and 410
 * fail it and stop the subscription; 429 (after its Retry-After), 5xx,
 * timeouts and connection errors are retried; any other answer (a 400, a
 * 403 for a bad VAPID token, a 413 too large) fails that delivery.
 */
export function judgePushServiceResult(result: PushServiceResult, now: Date): PushServiceVerdict {
  switch (result.kind) {
    case 'timeout':
      return { outcome: { kind: 'retry', reason: `push service did not answer within ${result.seconds} s` }, stop: false };
    case 'aborted':
      return { outcome: { kind: 'retry', reason: 'push interrupted by shutdown' }, stop: false };
    case 'network':
      return { outcome: { kind: 'retry', reason: `push service unreachable: ${result.code}` }, stop: false };
    case 'refused':
      return { outcome: { kind: 'failed', reason: result.reason }, stop: false };
    case 'answered': {
      const { status } = result;
      if (status >= 200 && status < 300) return { outcome: { kind: 'delivered' }, stop: false };
      const reason = `push service ${status}`;
      if (status === 404 || status === 410) return { outcome: { kind: 'failed', reason: `${reason}: the browser's subscription is gone` }, stop: true };
      if (status === 429) {
        const notBefore = result.retryAfterSeconds === undefined ? undefined : new Date(now.getTime() + result.retryAfterSeconds * 1000);
        return { outcome: notBefore ? { kind: 'retry', reason, notBefore } : { kind: 'retry', reason }, stop: false };
      }
      if (status >= 500) return { outcome: { kind: 'retry', reason }, stop: false };
      return { outcome: { kind: 'failed', reason }, stop: false };
    }
  }
}
