// A test double of an ntfy (>= 2.16) push server over real HTTP on 127.0.0.1, for the project's
// own tests and benchmarks. Protocol rules live in push-server-protocol.ts, auth/ACL/rate limits in
// push-server-acl.ts. Nothing runs on import.
//
// Decisions where the double has to pick a behaviour:
// - Order of checks per publish: body fully received -> injected fault -> 401 -> rate limit ->
//   JSON body (413 41303 / 400 40024 / 400 40009) -> reserved topic 40010 -> ACL 403 ->
//   priority 40007 -> sequence id 40049 -> stored and answered (as ntfy's middleware chain).
// - A message text over `messageLimit` (4096 UTF-8 bytes): ntfy turns it into an attachment
//   (or answers 40014 where attachments are off). By default the double stores the full text with
//   `oversize: true` and counts it in `oversizeMessages`, so tests can assert the publisher cut its
//   text; `oversizeMessage: 'reject'` answers 400 40014 like a server without attachments.
// - Faults (failNext/delayNext/dropNext) apply to message publishes only, in the order queued.
//   A failed or dropped publish is not stored. A delayed publish is processed (checked, stored)
//   when its answer is written after the delay, whether or not the client is still waiting: a
//   client that timed out and retried leaves two stored messages with the same sequence_id, as
//   against a real server. reset() and close() abort delayed publishes still waiting.
// - `delay` is recorded but not scheduled; `cache: "no"` publishes are stored but left out of polls.
// - GET /<topic>/json answers like `?poll=1` (all cached messages, then the end of the response).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, createAccessControl, createRateLimiter, type AclEntry, type Permission, type RateLimit } from './push-server-acl.ts';
import {
  NTFY_ERRORS, RESERVED_TOPICS, SEQUENCE_ID_RE, errorBody, faultError, isError, parseHeaderPublish, parseJsonPublish,
  parsePriority, parseTags, randomId, readBody, route, type NtfyError, type PublishRequest, type Route,
} from './push-server-protocol.ts';

export type { AclEntry, Permission, RateLimit } from './push-server-acl.ts';
export { NTFY_ERRORS, type NtfyError } from './push-server-protocol.ts';

/** Default access token (`tk_` + 29 characters), mapped to user {@link DEFAULT_PUBLISHER_USER}. */
export const DEFAULT_PUBLISHER_TOKEN = 'tk_doubletestpublishertoken00001';
export const DEFAULT_PUBLISHER_USER = 'publisher';
export const DEFAULT_ACL: readonly AclEntry[] = [
  { user: DEFAULT_PUBLISHER_USER, topic: '*', permission: 'read-write' },
  { user: '*', topic: '*', permission: 'read-only' },
];
/** Seconds a message stays cached (ntfy's default cache duration, 12 h). */
export const CACHE_DURATION_SECONDS = 43_200;

export interface PushServerDoubleOptions {
  /** Access token -> user name. Default: {@link DEFAULT_PUBLISHER_TOKEN} -> 'publisher'. */
  tokens?: Record<string, string>;
  /** Default: the publisher may read and write every topic, everyone may read. */
  acl?: readonly AclEntry[];
  /** Access where no ACL entry matches. Default 'deny-all'. */
  defaultAccess?: Permission;
  /** JSON publish body limit in bytes (ntfy: twice the message limit). Default 8192. */
  bodyLimit?: number;
  /** Message text limit in UTF-8 bytes. Default 4096. */
  messageLimit?: number;
  /** What an over-long message text does; see the header comment. Default 'flag'. */
  oversizeMessage?: 'flag' | 'reject';
  /** Per-visitor request limit; off by default. ntfy's own is { burst: 60, refillPerSecond: 0.2 }. */
  visitorRateLimit?: RateLimit;
}

export interface FaultOptions {
  status: 429 | 500 | 503;
  /** ntfy error code in the body; default 42901 for 429, 50001 for 500, none for 503. */
  code?: number;
  /** Adds a Retry-After header (seconds); ntfy itself sends none. */
  retryAfterSeconds?: number;
}

/** A stored event as ntfy sends it (publish answer / poll line), plus what the double noted. */
export interface StoredMessage {
  readonly id: string;
  readonly sequence_id?: string;
  readonly time: number;
  readonly expires: number;
  readonly event: 'message' | 'message_clear' | 'message_delete';
  readonly topic: string;
  readonly title?: string;
  readonly message?: string;
  readonly priority?: number;
  readonly tags?: readonly string[];
  readonly click?: string;
  readonly actions?: readonly unknown[];
  readonly content_type?: string;
  /** Not on the wire: who published it (null = anonymous). */
  readonly publishedBy: string | null;
  /** Not on the wire: the message text was over the message limit. */
  readonly oversize: boolean;
  /** Not on the wire: false for `cache: "no"` (left out of polls). */
  readonly cached: boolean;
  /** Not on the wire: the `delay` asked for (not scheduled by the double). */
  readonly delay?: string;
}

export interface PushServerDouble {
  readonly baseUrl: string;
  /** Every HTTP request received, answered or not. */
  readonly requestCount: number;
  /** Message publish requests received (before any check). */
  readonly publishRequestCount: number;
  /** Stored messages whose text was over the message limit. */
  readonly oversizeMessages: number;
  /** Stored `message` events of a topic, in publish order. */
  messages(topic: string): StoredMessage[];
  /** Stored `message` events of all topics, in publish order. */
  allMessages(): StoredMessage[];
  /** Every stored event of a topic (messages, clears, deletes), in order. */
  events(topic: string): StoredMessage[];
  failNext(n: number, fault: FaultOptions): void;
  delayNext(n: number, ms: number): void;
  dropNext(n: number): void;
  /** Forgets messages, counters, queued faults and rate-limit state; aborts delayed publishes. */
  reset(): void;
  close(): Promise<void>;
}

type Fault = { kind: 'fail'; error: NtfyError; retryAfterSeconds?: number } | { kind: 'delay'; ms: number } | { kind: 'drop' };
interface Stored { readonly message: StoredMessage; readonly json: string }

const JSON_HEADERS = { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' };
/** Body cap for header publishes (ntfy would take more as an attachment): 413 41301 past it. */
const HEADER_PUBLISH_LIMIT = 1024 * 1024;

/** Starts a double on 127.0.0.1 and a random port. */
export async function startPushServerDouble(options: PushServerDoubleOptions = {}): Promise<PushServerDouble> {
  const tokens = new Map(Object.entries(options.tokens ?? { [DEFAULT_PUBLISHER_TOKEN]: DEFAULT_PUBLISHER_USER }));
  const access = createAccessControl(options.acl ?? DEFAULT_ACL, options.defaultAccess ?? 'deny-all');
  const limiter = options.visitorRateLimit === undefined ? undefined : createRateLimiter(options.visitorRateLimit);
  const bodyLimit = options.bodyLimit ?? 8192;
  const messageLimit = options.messageLimit ?? 4096;
  const rejectOversize = options.oversizeMessage === 'reject';

  let stored: Stored[] = [];
  let byTopic = new Map<string, Stored[]>();
  let faults: { fault: Fault; remaining: number }[] = [];
  const waiting = new Set<{ timer: NodeJS.Timeout; req: IncomingMessage }>();
  let requestCount = 0;
  let publishRequestCount = 0;
  let oversizeMessages = 0;

  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = JSON_HEADERS): void => {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { ...headers, 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(body);
  };
  const fail = (res: ServerResponse, e: NtfyError, headers: Record<string, string> = JSON_HEADERS): void => send(res, e.http, errorBody(e), headers);

  const store = (message: StoredMessage): string => {
    const { publishedBy: _by, oversize: _o, cached: _c, delay: _d, ...wire } = message;
    const entry = { message, json: JSON.stringify(wire) };
    stored.push(entry);
    let list = byTopic.get(message.topic);
    if (list === undefined) byTopic.set(message.topic, (list = []));
    list.push(entry);
    return entry.json;
  };

  /** Credentials (401), then the visitor's rate limit (429). */
  const identify = (req: IncomingMessage): { user: string | null } | NtfyError => {
    const auth = authenticate(req.headers.authorization, tokens);
    if (auth === 'unauthorized') return NTFY_ERRORS.unauthorized;
    if (limiter !== undefined && !limiter.allow(auth.user === null ? `ip:${req.socket.remoteAddress}` : `user:${auth.user}`)) {
      return NTFY_ERRORS.tooManyRequests;
    }
    return auth;
  };
  /** Reserved topic name (40010), then the ACL (403). */
  const authorize = (user: string | null, topic: string, write: boolean): NtfyError | undefined => {
    if (RESERVED_TOPICS.has(topic)) return NTFY_ERRORS.topicDisallowed;
    if (!(write ? access.canWrite(user, topic) : access.canRead(user, topic))) return NTFY_ERRORS.forbidden;
    return undefined;
  };

  const processPublish = (req: IncomingMessage, res: ServerResponse, r: Route, body: Buffer, tooLarge: boolean): void => {
    const who = identify(req);
    if (isError(who)) return fail(res, who);
    let p: PublishRequest | NtfyError;
    if (r.kind === 'publish-json') p = tooLarge ? NTFY_ERRORS.jsonBodyTooLarge : parseJsonPublish(body);
    else if (r.kind === 'publish') p = tooLarge ? NTFY_ERRORS.attachmentTooLarge : parseHeaderPublish(r.topic, r.sid, req.headers, body);
    else p = NTFY_ERRORS.notFound;
    if (isError(p)) return fail(res, p);
    const denied = authorize(who.user, p.topic, true);
    if (denied !== undefined) return fail(res, denied);
    const priority = parsePriority(p.priority);
    if (isError(priority)) return fail(res, priority);
    if (p.sequenceId !== '' && !SEQUENCE_ID_RE.test(p.sequenceId)) return fail(res, NTFY_ERRORS.sequenceIdInvalid);
    const oversize = Buffer.byteLength(p.message) > messageLimit;
    if (oversize && rejectOversize) return fail(res, NTFY_ERRORS.attachmentsDisallowed);
    if (oversize) oversizeMessages++;
    const id = randomId();
    const time = Math.floor(Date.now() / 1000);
    const tags = parseTags(p.tags);
    const json = store({
      id,
      ...(p.sequenceId !== '' && p.sequenceId !== id ? { sequence_id: p.sequenceId } : {}),
      time,
      expires: time + CACHE_DURATION_SECONDS,
      event: 'message',
      topic: p.topic,
      ...(p.title !== '' ? { title: p.title } : {}),
      message: p.message,
      ...(priority !== 0 ? { priority } : {}),
      ...(tags.length > 0 ? { tags } : {}),
      ...(p.click !== '' ? { click: p.click } : {}),
      ...(p.actions.length > 0 ? { actions: p.actions } : {}),
      ...(p.markdown ? { content_type: 'text/markdown' } : {}),
      publishedBy: who.user,
      oversize,
      cached: p.cache,
      ...(p.delay !== '' ? { delay: p.delay } : {}),
    });
    send(res, 200, json + '\n');
  };

  const nextFault = (): Fault | undefined => {
    const head = faults[0];
    if (head === undefined) return undefined;
    if (--head.remaining <= 0) faults.shift();
    return head.fault;
  };

  const onPublish = (req: IncomingMessage, res: ServerResponse, r: Route, body: Buffer, tooLarge: boolean): void => {
    const fault = nextFault();
    if (fault === undefined) return processPublish(req, res, r, body, tooLarge);
    if (fault.kind === 'drop') {
      req.socket.destroy();
    } else if (fault.kind === 'fail') {
      const headers = fault.retryAfterSeconds === undefined ? JSON_HEADERS : { ...JSON_HEADERS, 'Retry-After': String(fault.retryAfterSeconds) };
      fail(res, fault.error, headers);
    } else {
      const entry = {
        req,
        timer: setTimeout(() => {
          waiting.delete(entry);
          processPublish(req, res, r, body, tooLarge);
        }, fault.ms),
      };
      waiting.add(entry);
    }
  };

  const clearOrDelete = (req: IncomingMessage, res: ServerResponse, topic: string, sid: string, event: StoredMessage['event']): void => {
    const who = identify(req);
    if (isError(who)) return fail(res, who);
    const denied = authorize(who.user, topic, true);
    if (denied !== undefined) return fail(res, denied);
    if (!SEQUENCE_ID_RE.test(sid)) return fail(res, NTFY_ERRORS.sequenceIdInvalid);
    const time = Math.floor(Date.now() / 1000);
    const json = store({
      id: randomId(), sequence_id: sid, time, expires: time + CACHE_DURATION_SECONDS, event, topic,
      publishedBy: who.user, oversize: false, cached: true,
    });
    send(res, 200, json + '\n');
  };

  const poll = (req: IncomingMessage, res: ServerResponse, topic: string, query: string): void => {
    const who = identify(req);
    if (isError(who)) return fail(res, who);
    const denied = authorize(who.user, topic, false);
    if (denied !== undefined) return fail(res, denied);
    const since = new URLSearchParams(query).get('since') ?? 'all';
    let list = (byTopic.get(topic) ?? []).filter((e) => e.message.cached);
    if (since === 'none') list = [];
    else if (since === 'latest') list = list.slice(-1);
    else if (/^\d+$/.test(since)) list = list.filter((e) => e.message.time >= Number(since));
    else if (since !== 'all') list = list.slice(list.findIndex((e) => e.message.id === since) + 1);
    send(res, 200, list.map((e) => e.json + '\n').join(''), { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Access-Control-Allow-Origin': '*' });
  };

  const server = createServer((req, res) => {
    requestCount++;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const r = route(req.method ?? 'GET', q < 0 ? url : url.slice(0, q));
    if (r.kind === 'publish-json' || r.kind === 'publish') {
      publishRequestCount++;
      readBody(req, r.kind === 'publish-json' ? bodyLimit : HEADER_PUBLISH_LIMIT, (body, tooLarge) => onPublish(req, res, r, body, tooLarge));
      return;
    }
    readBody(req, 0, () => {
      if (r.kind === 'poll') poll(req, res, r.topic, q < 0 ? '' : url.slice(q + 1));
      else if (r.kind === 'clear') clearOrDelete(req, res, r.topic, r.sid, 'message_clear');
      else if (r.kind === 'delete') clearOrDelete(req, res, r.topic, r.sid, 'message_delete');
      else if (r.kind === 'health') send(res, 200, '{"healthy":true}\n');
      else fail(res, NTFY_ERRORS.notFound);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  const abortWaiting = (): void => {
    for (const entry of waiting) {
      clearTimeout(entry.timer);
      entry.req.socket.destroy();
    }
    waiting.clear();
  };
  const onlyMessages = (list: readonly Stored[]): StoredMessage[] => list.filter((e) => e.message.event === 'message').map((e) => e.message);
  const queue = (n: number, fault: Fault): void => {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`fault count must be a non-negative integer, got ${n}`);
    if (n > 0) faults.push({ fault, remaining: n });
  };

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get requestCount() { return requestCount; },
    get publishRequestCount() { return publishRequestCount; },
    get oversizeMessages() { return oversizeMessages; },
    messages: (topic) => onlyMessages(byTopic.get(topic) ?? []),
    allMessages: () => onlyMessages(stored),
    events: (topic) => (byTopic.get(topic) ?? []).map((e) => e.message),
    failNext: (n, f) => queue(n, { kind: 'fail', error: faultError(f.status, f.code), retryAfterSeconds: f.retryAfterSeconds }),
    delayNext: (n, ms) => queue(n, { kind: 'delay', ms }),
    dropNext: (n) => queue(n, { kind: 'drop' }),
    reset() {
      abortWaiting();
      stored = [];
      byTopic = new Map();
      faults = [];
      requestCount = 0;
      publishRequestCount = 0;
      oversizeMessages = 0;
      limiter?.clear();
    },
    close() {
      abortWaiting();
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err === undefined ? resolve() : reject(err)));
        server.closeAllConnections();
      });
    },
  };
}
