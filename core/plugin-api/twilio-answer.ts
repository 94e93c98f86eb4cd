import { retryAfterSeconds } from './retry-after.ts';

/** What a gateway speaking Twilio's API answered a request (a text, a call), read from its status, headers and body. */
export interface TwilioAnswer {
  readonly kind: 'answered';
  readonly status: number;
  /** The id of what it created (`SM…`, `CA…`). */
  readonly sid?: string;
  /** Twilio's error code from the body `{code, message, status}`. */
  readonly code?: number;
  readonly retryAfterSeconds?: number;
}

/**
 * Reads an answer of Twilio's REST API (pure): the status, the `sid` of a
 * 2xx, Twilio's error `code`, a Retry-After. A body that is not JSON (a
 * proxy's error page) leaves the status alone to decide. The message of
 * an error body is never read: it may echo the number or the text.
 */
export function readTwilioAnswer(status: number, retryAfter: string | string[] | undefined, body: string, now: Date): TwilioAnswer {
  let parsed: { sid?: unknown; code?: unknown } = {};
  try {
    const value: unknown = JSON.parse(body);
    if (value !== null && typeof value === 'object') parsed = value as typeof parsed;
  } catch {
    // Not JSON: the status alone decides.
  }
  const wait = retryAfterSeconds(retryAfter, now);
  return {
    kind: 'answered',
    status,
    ...(typeof parsed.sid === 'string' && parsed.sid !== '' ? { sid: parsed.sid } : {}),
    ...(typeof parsed.code === 'number' ? { code: parsed.code } : {}),
    ...(wait === undefined ? {} : { retryAfterSeconds: wait }),
  };
}
