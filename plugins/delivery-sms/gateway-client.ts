import { EventEmitter } from 'node:events';
import { readTwilioAnswer } from '#plugin-api';
import { errors, Pool } from 'undici';
import type { GatewayResult } from './gateway-result.ts';

export interface GatewaySettings {
  readonly baseUrl: string;
  readonly accountSid: string;
  readonly authToken: string;
  /** Exactly one of the two names the sender. */
  readonly from?: string;
  readonly messagingServiceSid?: string;
  readonly timeoutSeconds: number;
  readonly connections: number;
}

export interface OutgoingText {
  readonly to: string;
  readonly body: string;
  /** Where the gateway posts this text's delivery reports. */
  readonly statusCallback?: string;
}

/** The form of one text, as Twilio's Messages API takes it (pure; also the bench's raw baseline). */
export function messageForm(settings: Pick<GatewaySettings, 'from' | 'messagingServiceSid'>, text: OutgoingText): string {
  const sender = settings.messagingServiceSid
    ? `&MessagingServiceSid=${encode(settings.messagingServiceSid)}`
    : settings.from
      ? `&From=${encode(settings.from)}`
      : '';
  const callback = text.statusCallback ? `&StatusCallback=${encode(text.statusCallback)}` : '';
  return `To=${encode(text.to)}&Body=${encode(text.body)}${sender}${callback}`;
}

/** application/x-www-form-urlencoded: percent-encoding (a space as %20, which every form parser reads). */
const encode = encodeURIComponent;

/** `POST /2010-04-01/Accounts/{sid}/Messages.json` under the base URL's path. */
export function messagesPath(baseUrl: string, accountSid: string): string {
  const base = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return `${base}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
}

/**
 * One batch's way to stop its sends: undici is handed an EventEmitter, one
 * per batch, instead of the AbortSignal itself (an AbortSignal with
 * hundreds of listeners made each send a fifth slower in bench:sms).
 */
export interface BatchAbort {
  readonly signal: AbortSignal;
  readonly emitter: EventEmitter;
  /** Stops relaying the signal (call when the batch is done). */
  dispose(): void;
}

export function batchAbort(signal: AbortSignal): BatchAbort {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const relay = () => emitter.emit('abort');
  signal.addEventListener('abort', relay, { once: true });
  return { signal, emitter, dispose: () => signal.removeEventListener('abort', relay) };
}

export interface GatewayClient {
  send(text: OutgoingText, abort?: BatchAbort): Promise<GatewayResult>;
  close(): Promise<void>;
}

/**
 * Twilio's Messages API over pooled keep-alive connections (undici). Each
 * send returns what happened (status, sid, Twilio's error code, a
 * Retry-After) and never throws: `judgeGatewayResult` decides. The auth
 * token only ever goes into the Authorization header.
 */
export function createGatewayClient(settings: GatewaySettings): GatewayClient {
  const origin = new URL(settings.baseUrl).origin;
  const pool = new Pool(origin, { connections: settings.connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const path = messagesPath(settings.baseUrl, settings.accountSid);
  const timeoutMs = settings.timeoutSeconds * 1000;
  const headers = {
    authorization: `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`,
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  return {
    async send(text, abort) {
      if (abort?.signal.aborted) return { kind: 'aborted' };
      try {
        const response = await pool.request({
          method: 'POST',
          path,
          headers,
          body: messageForm(settings, text),
          signal: abort?.emitter,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        return readTwilioAnswer(response.statusCode, response.headers['retry-after'], await response.body.text(), new Date());
      } catch (err) {
        if (abort?.signal.aborted) return { kind: 'aborted' };
        if (err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError) return { kind: 'timeout', seconds: settings.timeoutSeconds };
        return { kind: 'network', code: (err as { code?: string }).code ?? 'ERROR' };
      }
    },
    close: () => pool.close(),
  };
}
