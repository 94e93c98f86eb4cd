import type { DeliveryOutcome, OutboundResult } from '#plugin-api';

/** What one POST came to, before it is judged. */
export type WebhookResult = OutboundResult;

export interface WebhookVerdict {
  readonly outcome: DeliveryOutcome;
  /** 410 Gone: the receiver says the subscription is over. */
  readonly stop: boolean;
}

/**
 * Judges a delivery (pure): 2xx delivered; 410 fails it and stops the
 * subscription; 429 (after its Retry-After), 5xx, timeouts and connection
 * errors are retried; a destination that no longer passes the host rules
 * (its name now resolves to a private address) and any other answer fail it.
 */
export function judgeWebhookResult(result: WebhookResult, now: Date): WebhookVerdict {
  switch (result.kind) {
    case 'timeout':
      return { outcome: { kind: 'retry', reason: `receiver did not answer within ${result.seconds} s` }, stop: false };
    case 'aborted':
      return { outcome: { kind: 'retry', reason: 'delivery interrupted by shutdown' }, stop: false };
    case 'network':
      return { outcome: { kind: 'retry', reason: `receiver unreachable: ${result.code}` }, stop: false };
    case 'refused':
      return { outcome: { kind: 'failed', reason: result.reason }, stop: false };
    case 'answered': {
      const { status } = result;
      if (status >= 200 && status < 300) return { outcome: { kind: 'delivered' }, stop: false };
      const reason = `receiver ${status}`;
      if (status === 410) return { outcome: { kind: 'failed', reason: `${reason}: the receiver ended the subscription` }, stop: true };
      if (status === 429) {
        const notBefore = result.retryAfterSeconds === undefined ? undefined : new Date(now.getTime() + result.retryAfterSeconds * 1000);
        return { outcome: notBefore ? { kind: 'retry', reason, notBefore } : { kind: 'retry', reason }, stop: false };
      }
      if (status >= 500) return { outcome: { kind: 'retry', reason }, stop: false };
      return { outcome: { kind: 'failed', reason }, stop: false };
    }
  }
}
