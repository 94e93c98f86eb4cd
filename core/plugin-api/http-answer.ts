import type { DeliveryOutcome } from './delivery-types.ts';
import type { OutboundResult } from './outbound-client.ts';

export interface HttpAnswerWords {
  /** What the peer is, in reasons: `receiver`, `push service`. */
  readonly peer: string;
  /** Statuses that say the destination is no more (a webhook receiver's 410; a push service's 404 and 410): `gone`. */
  readonly goneStatuses?: readonly number[];
  /** What `gone` means, said after the status: `the receiver ended the subscription`. */
  readonly goneMeans?: string;
  /** Whose rate a 429 speaks of: the lane's shared peer (`lane`, the default) or this subscriber's own (`delivery`). */
  readonly slowDownScope?: 'lane' | 'delivery';
}

/**
 * One judge of an HTTP answer to a delivery (pure), for any target that
 * posts with the kit's outbound client: 2xx delivered; a gone status
 * failed and `gone` (core stops the subscription too); 429 slows
 * down for its Retry-After, the attempt not counted; 5xx, timeouts and
 * connection errors retried; an address the host rules refuse, and any
 * other answer (a 400, a 403, a redirect, which is never followed), failed.
 */
export function judgeHttpAnswer(result: OutboundResult, words: HttpAnswerWords): DeliveryOutcome {
  const { peer } = words;
  switch (result.kind) {
    case 'timeout':
      return { kind: 'retry', reason: `${peer} did not answer within ${result.seconds} s` };
    case 'aborted':
      return { kind: 'retry', reason: 'delivery interrupted by shutdown' };
    case 'network':
      return { kind: 'retry', reason: `${peer} unreachable: ${result.code}` };
    case 'refused':
      return { kind: 'failed', reason: result.reason };
    case 'answered': {
      const { status } = result;
      if (status >= 200 && status < 300) return { kind: 'delivered' };
      const reason = `${peer} ${status}`;
      if (words.goneStatuses?.includes(status)) {
        return { kind: 'failed', gone: true, code: String(status), reason: words.goneMeans ? `${reason}: ${words.goneMeans}` : reason };
      }
      if (status === 429) {
        const retryAfter = result.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: result.retryAfterSeconds };
        return { kind: 'slowDown', reason, scope: words.slowDownScope ?? 'lane', ...retryAfter };
      }
      if (status >= 500) return { kind: 'retry', reason };
      return { kind: 'failed', reason };
    }
  }
}
