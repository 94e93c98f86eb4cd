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
  const form = new URLSearchParams({ To: text.to, Body: text.body });
  if (settings.messagingServiceSid) form.set('MessagingServiceSid', settings.messagingServiceSid);
  else if (settings.from) form.set('From', settings.from);
  if (text.statusCallback) form.set('StatusCallback', text.statusCallback);
  return form.toString();
}

/** `POST /2010-04-01/Accounts/{sid}/Messages.json` under the base URL's path. */
export function messagesPath(baseUrl: string, accountSid: string): string {
  const base = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return `${base}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
}

export interface GatewayClient {
  send(text: OutgoingText, signal?: AbortSignal): Promise<GatewayResult>;
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
    async send(text, signal) {
      try {
        const response = await pool.request({
          method: 'POST',
          path,
          headers,
          body: messageForm(settings, text),
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        const raw = await response.body.text();
        let parsed: { sid?: unknown; code?: unknown } = {};
        try {
          parsed = JSON.parse(raw) as typeof parsed;
        } catch {
          // Not JSON (a proxy's error page): the status alone decides.
        }
        const retryAfter = Number(response.headers['retry-after']);
        return {
          kind: 'answered',
          status: response.statusCode,
          ...(typeof parsed.sid === 'string' && parsed.sid !== '' ? { sid: parsed.sid } : {}),
          ...(typeof parsed.code === 'number' ? { code: parsed.code } : {}),
          ...(Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterSeconds: retryAfter } : {}),
        };
      } catch (err) {
        if (signal?.aborted) return { kind: 'aborted' };
        if (err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError) return { kind: 'timeout', seconds: settings.timeoutSeconds };
        return { kind: 'network', code: (err as { code?: string }).code ?? 'ERROR' };
      }
    },
    close: () => pool.close(),
  };
}
