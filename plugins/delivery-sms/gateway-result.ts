import type { DeliveryOutcome } from '#plugin-api';

/** What one send to the gateway came to, before it is judged. */
export type GatewayResult =
  /** The gateway answered; `code` is Twilio's error code from the body `{code, message, status}` when it has one. */
  | { readonly kind: 'answered'; readonly status: number; readonly sid?: string; readonly code?: number; readonly retryAfterSeconds?: number }
  | { readonly kind: 'timeout'; readonly seconds: number }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'network'; readonly code: string };

/** Invalid 'To' number; not a mobile number: this delivery fails. */
const NOT_REACHABLE = new Set([21211, 21614]);
/** The recipient replied STOP at the carrier: the subscription stops. */
export const UNSUBSCRIBED_AT_CARRIER = 21610;
/** Delivery report statuses that say the carrier never handed the text over: the delivery's outcome is `undelivered`. */
export const NOT_HANDED_OVER: ReadonlySet<string> = new Set(['undelivered', 'failed']);

export interface GatewayVerdict {
  readonly outcome: DeliveryOutcome;
  /** The subscription must stop: the number opted out at the carrier (21610). */
  readonly stop: boolean;
  /** The message's id at the gateway (a delivery report names it). */
  readonly sid?: string;
}

/** `sms gateway 400 (21211)`: status and Twilio's code, never the number or the text. */
const describe = (status: number, code?: number) => (code === undefined ? `sms gateway ${status}` : `sms gateway ${status} (${code})`);

/**
 * Judges a send: 2xx with a sid is delivered (to the gateway); 21211 and
 * 21614 fail it; 21610 fails it and stops the subscription; a 429 says to
 * slow down (the lane pauses for its Retry-After, and the text waits
 * without an attempt counted); 5xx, timeouts and connection errors are
 * retried; 401/403 are retried too (a credential an operator fixes); any
 * other answer fails the delivery.
 */
export function judgeGatewayResult(result: GatewayResult): GatewayVerdict {
  switch (result.kind) {
    case 'timeout':
      return { outcome: { kind: 'retry', reason: `sms gateway did not answer within ${result.seconds} s` }, stop: false };
    case 'aborted':
      return { outcome: { kind: 'retry', reason: 'send interrupted by shutdown' }, stop: false };
    case 'network':
      return { outcome: { kind: 'retry', reason: `sms gateway unreachable: ${result.code}` }, stop: false };
    case 'answered': {
      const { status, code } = result;
      if (status >= 200 && status < 300 && result.sid) return { outcome: { kind: 'delivered', detail: result.sid }, stop: false, sid: result.sid };
      const reason = describe(status, code);
      if (code === UNSUBSCRIBED_AT_CARRIER) return { outcome: { kind: 'failed', reason: `${reason}: the number opted out at its carrier` }, stop: true };
      if (code !== undefined && NOT_REACHABLE.has(code)) return { outcome: { kind: 'failed', reason }, stop: false };
      if (status === 429) {
        const retryAfter = result.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: result.retryAfterSeconds };
        return { outcome: { kind: 'slowDown', reason, ...retryAfter }, stop: false };
      }
      if (status >= 500 || status === 401 || status === 403) return { outcome: { kind: 'retry', reason }, stop: false };
      return { outcome: { kind: 'failed', reason: status >= 200 && status < 300 ? `${reason}: answer without a sid` : reason }, stop: false };
    }
  }
}
