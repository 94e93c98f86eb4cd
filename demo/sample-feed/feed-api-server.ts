import { createHash } from 'node:crypto';
import http, { type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../web/loopback.ts';

/** The feed API's paths (`/power-outages`, `/scheduled-outages`, …) and what each answers (the JSON body, built on every request). */
export type FeedAnswers = Readonly<Record<string, () => unknown>>;

export type FeedSend = (status: number, body: string, headers?: Record<string, string>) => void;

/** An answer given as JSON text, sent as it is (text JSON.stringify could not write: nesting thousands deep). */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export interface FeedApiServerOptions {
  apiKey: string;
  answers: FeedAnswers;
  /** Counts every request by path, before anything else. */
  onRequest?(path: string): void;
  /** Runs after the key is checked; resolves true when it answered the request itself (a fault). `response` is there for an answer written by hand (a chunked one). */
  intercept?(send: FeedSend, response: ServerResponse): Promise<boolean>;
  /** Whether answers carry an ETag (and If-None-Match gets 304). Default: always. */
  etags?(): boolean;
}

export interface FeedApiServer {
  readonly baseUrl: string;
  close(): Promise<void>;
}

/**
 * A utility's feed API over a real socket on 127.0.0.1: GET of each path
 * it answers with X-Api-Key (401 without the right key), ETag
 * and 304. The demo's sample feed and the tests' feed double stand on it.
 */
export async function startFeedApiServer(options: FeedApiServerOptions): Promise<FeedApiServer> {
  const server = http.createServer(async (req, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    options.onRequest?.(path);
    const send: FeedSend = (status, body, headers = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    if (req.method !== 'GET' || !Object.hasOwn(options.answers, path)) return send(404, '{"error":"not found"}');
    if (req.headers['x-api-key'] !== options.apiKey) return send(401, '{"error":"bad api key"}');
    if (options.intercept !== undefined && (await options.intercept(send, res))) return;
    const answer = options.answers[path]();
    const body = answer instanceof RawJson ? answer.text : JSON.stringify(answer);
    const withEtag = options.etags?.() ?? true;
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    if (withEtag && req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag });
      return res.end();
    }
    send(200, body, withEtag ? { etag } : {});
  });
  server.keepAliveTimeout = 60_000;
  const port = await listenOnLoopback(server);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
