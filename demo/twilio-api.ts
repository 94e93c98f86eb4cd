import { createHmac } from 'node:crypto';
import http from 'node:http';
import { request } from 'undici';

/**
 * What the Twilio-like gateway doubles (texts, calls) share: the answers
 * Twilio's REST API gives (JSON, Basic auth, scripted faults), their
 * server, and the callbacks they post to the service, signed like Twilio's.
 */

/** An answer the test scripts for the next request: a status, Twilio's error code (status × 100 by default), a Retry-After. */
export type ScriptedAnswer = { readonly status: number; readonly code?: number; readonly retryAfter?: number };

/** A JSON answer, as Twilio's REST API gives them. */
export function jsonAnswer(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A scripted fault's answer. */
export function faultAnswer(res: http.ServerResponse, fault: ScriptedAnswer): void {
  jsonAnswer(
    res,
    fault.status,
    { code: fault.code ?? fault.status * 100, message: 'scripted', status: fault.status },
    fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) },
  );
}

/** Twilio's Basic auth (account SID and auth token): answers 401 (code 20003) and false when a request does not carry it. */
export function basicAuth(accountSid: string, authToken: string): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  return (req, res) => {
    if (req.headers.authorization === expected) return true;
    jsonAnswer(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
    return false;
  };
}

/** A gateway's server: each request's body read whole, then its API's routes (`route` answers true), else its pages, else a 404. */
export function twilioServer(
  route: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => boolean,
  pages?: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => boolean,
): http.Server {
  return http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (route(req, res, body)) return;
      if (pages?.(req, res, body)) return;
      jsonAnswer(res, 404, { code: 20404, message: 'not found', status: 404 });
    });
  });
}

/**
 * What a Twilio-like gateway posts to the service (replies, statuses, keys):
 * a form signed like Twilio's over the public URL, sent to where the
 * service really listens.
 */
export function signedCallbacks(authToken: string, publicBaseUrl: string, serviceUrl?: string) {
  const publicBase = publicBaseUrl.replace(/\/+$/, '');
  let listening = (serviceUrl ?? publicBaseUrl).replace(/\/+$/, '');
  return {
    setServiceUrl: (next: string) => void (listening = next.replace(/\/+$/, '')),
    async post(publicUrl: string, fields: Record<string, string>, signature?: string) {
      const path = publicUrl.startsWith(publicBase) ? publicUrl.slice(publicBase.length) : new URL(publicUrl).pathname;
      const response = await request(`${listening}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': signature ?? twilioSignature(authToken, publicUrl, fields),
        },
        body: new URLSearchParams(fields).toString(),
      });
      return { status: response.statusCode, text: await response.body.text() };
    },
  };
}

/**
 * Twilio's request signature, as the gateway computes it (its published
 * algorithm, written here so the double does not lean on the plugin's own
 * code): base64 HMAC-SHA1 keyed by the auth token over the URL and each
 * field's name and value, names sorted.
 */
export function twilioSignature(authToken: string, url: string, fields: Readonly<Record<string, string>>): string {
  const data = Object.keys(fields)
    .sort()
    .reduce((text, name) => text + name + fields[name], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}
