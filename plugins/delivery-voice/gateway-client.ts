import { readTwilioAnswer } from '#plugin-api';
import { errors, Pool } from 'undici';
import type { CallResult } from './call-result.ts';

export interface VoiceGatewaySettings {
  readonly baseUrl: string;
  readonly accountSid: string;
  readonly authToken: string;
  readonly from: string;
  readonly timeoutSeconds: number;
  readonly connections: number;
}

export interface OutgoingCall {
  readonly to: string;
  /** What the call says and asks (TwiML). */
  readonly twiml: string;
  /** Where the gateway posts the call's status (answered, busy, no answer…). */
  readonly statusCallback: string;
}

/** The form of one call, as Twilio's Voice API takes it (pure). */
export function callForm(from: string, call: OutgoingCall): string {
  return new URLSearchParams({ To: call.to, From: from, Twiml: call.twiml, StatusCallback: call.statusCallback }).toString();
}

/** `POST /2010-04-01/Accounts/{sid}/Calls.json` under the base URL's path. */
export function callsPath(baseUrl: string, accountSid: string): string {
  const base = new URL(baseUrl).pathname.replace(/\/+$/, '');
  return `${base}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Calls.json`;
}

export interface VoiceGatewayClient {
  call(call: OutgoingCall, signal?: AbortSignal): Promise<CallResult>;
  close(): Promise<void>;
}

/**
 * Twilio's Voice API over pooled keep-alive connections (undici). Each
 * call request returns what happened and never throws: `judgeCallResult`
 * decides. The auth token only ever goes into the Authorization header.
 */
export function createVoiceGatewayClient(settings: VoiceGatewaySettings): VoiceGatewayClient {
  const pool = new Pool(new URL(settings.baseUrl).origin, { connections: settings.connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const path = callsPath(settings.baseUrl, settings.accountSid);
  const timeoutMs = settings.timeoutSeconds * 1000;
  const headers = {
    authorization: `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`,
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  return {
    async call(call, signal) {
      if (signal?.aborted) return { kind: 'aborted' };
      try {
        const response = await pool.request({
          method: 'POST',
          path,
          headers,
          body: callForm(settings.from, call),
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        return readTwilioAnswer(response.statusCode, response.headers['retry-after'], await response.body.text(), new Date());
      } catch (err) {
        if (signal?.aborted) return { kind: 'aborted' };
        if (err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError) return { kind: 'timeout', seconds: settings.timeoutSeconds };
        return { kind: 'network', code: (err as { code?: string }).code ?? 'ERROR' };
      }
    },
    close: () => pool.close(),
  };
}
