// The request handling of a small ntfy (>= 2.16) compatible server: JSON and header publishes,
// tokens and ACL, sequence ids, clear/delete, and the poll API (`GET /<topic>/json?poll=1`), with
// messages kept in memory. The demo's push inbox serves it beside its web page; the tests' push
// server double adds switchable faults in front of it. Protocol rules live in ntfy-protocol.ts,
// auth/ACL/rate limits in ntfy-acl.ts. Nothing runs on import.
//
// Decisions where the server has to pick a behaviour:
// - Order of checks per publish: body fully received -> publish gate (faults) -> 401 -> rate limit ->
//   JSON body (413 41303 / 400 40024 / 400 40009) -> reserved topic 40010 -> ACL 403 ->
//   priority 40007 -> sequence id 40049 -> stored and answered (as ntfy's middleware chain).
// - A message text over `messageLimit` (4096 UTF-8 bytes): ntfy turns it into an attachment
//   (or answers 40014 where attachments are off). By default the full text is stored with
//   `oversize: true` and counted in `oversizeMessages`, so tests can assert the publisher cut its
//   text; `oversizeMessage: 'reject'` answers 400 40014 like a server without attachments.
// - `delay` is recorded but not scheduled; `cache: "no"` publishes are stored but left out of polls.
// - GET /<topic>/json answers like `?poll=1` (all cached messages, then the end of the response).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, createAccessControl, createRateLimiter, type AclEntry, type Permission, type RateLimit } from './ntfy-acl.ts';
import {
  NTFY_ERRORS,
  RESERVED_TOPICS,
  SEQUENCE_ID_RE,
  errorBody,
  isError,
  parseHeaderPublish,
  parseJsonPublish,
  parsePriority,
  parseTags,
  randomId,
  readBody,
  route,
  type NtfyError,
  type PublishRequest,
  type Route,
} from './ntfy-protocol.ts';

/** Seconds a message stays cached (ntfy's default cache duration, 12 h). */
export const CACHE_DURATION_SECONDS = 43_200;

export interface NtfyServerOptions {
  /** Access token -> user name. */
  tokens: Readonly<Record<string, string>>;
  acl: readonly AclEntry[];
  /** Access where no ACL entry matches. */
  defaultAccess: Permission;
  /** JSON publish body limit in bytes (ntfy: twice the message limit). Default 8192. */
  bodyLimit?: number;
  /** Message text limit in UTF-8 bytes. Default 4096. */
  messageLimit?: number;
  /** What an over-long message text does; see the header comment. Default 'flag'. */
  oversizeMessage?: 'flag' | 'reject';
  /** Per-visitor request limit; off when absent. ntfy's own is { burst: 60, refillPerSecond: 0.2 }. */
  visitorRateLimit?: RateLimit;
}

/** A stored event as ntfy sends it (publish answer / poll line), plus what the server noted. */
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
  /** Not on the wire: the `delay` asked for (not scheduled). */
  readonly delay?: string;
}

/** A stored event and its wire form (one poll line, without the newline). */
export interface StoredEvent {
  readonly message: StoredMessage;
  readonly json: string;
}

/**
 * Sees every publish once its body has arrived, before any check: calls `proceed` to check and store
 * it, or answers (or drops) the request itself. The test double injects its faults here.
 */
export type PublishGate = (req: IncomingMessage, res: ServerResponse, proceed: () => void) => void;

export interface NtfyServer {
  /** Serves one request as ntfy would; anything it does not know is 404 40401. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Stored messages whose text was over the message limit. */
  readonly oversizeMessages: number;
  /** Every stored event (messages, clears, deletes) of every topic, in order. */
  stored(): readonly StoredEvent[];
  /** Stored events of one topic, in order. */
  storedIn(topic: string): readonly StoredEvent[];
  /** Called after each event is stored; returns a function that stops the calls. */
  onStored(listener: (event: StoredEvent) => void): () => void;
  /** Forgets events, counters and rate-limit state. */
  reset(): void;
}

const JSON_HEADERS = { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' };
/** Body cap for header publishes (ntfy would take more as an attachment): 413 41301 past it. */
const HEADER_PUBLISH_LIMIT = 1024 * 1024;

function sendText(res: ServerResponse, status: number, body: string, headers: Record<string, string> = JSON_HEADERS): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { ...headers, 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(body);
}

export function sendNtfyError(res: ServerResponse, e: NtfyError, headers: Record<string, string> = JSON_HEADERS): void {
  sendText(res, e.http, errorBody(e), headers);
}

export function createNtfyServer(options: NtfyServerOptions, gate: PublishGate = (_req, _res, proceed) => proceed()): NtfyServer {
  const tokens = new Map(Object.entries(options.tokens));
  const access = createAccessControl(options.acl, options.defaultAccess);
  const limiter = options.visitorRateLimit === undefined ? undefined : createRateLimiter(options.visitorRateLimit);
  const bodyLimit = options.bodyLimit ?? 8192;
  const messageLimit = options.messageLimit ?? 4096;
  const rejectOversize = options.oversizeMessage === 'reject';
  const listeners = new Set<(event: StoredEvent) => void>();

  let all: StoredEvent[] = [];
  let byTopic = new Map<string, StoredEvent[]>();
  let oversizeMessages = 0;

  const store = (message: StoredMessage): string => {
    const { publishedBy: _by, oversize: _o, cached: _c, delay: _d, ...wire } = message;
    const entry: StoredEvent = { message, json: JSON.stringify(wire) };
    all.push(entry);
    let list = byTopic.get(message.topic);
    if (list === undefined) byTopic.set(message.topic, (list = []));
    list.push(entry);
    for (const listener of listeners) listener(entry);
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

  const publish = (req: IncomingMessage, res: ServerResponse, r: Route, body: Buffer, tooLarge: boolean): void => {
    const who = identify(req);
    if (isError(who)) {
      sendNtfyError(res, who);
      return;
    }
    let p: PublishRequest | NtfyError;
    if (r.kind === 'publish-json') p = tooLarge ? NTFY_ERRORS.jsonBodyTooLarge : parseJsonPublish(body);
    else if (r.kind === 'publish') p = tooLarge ? NTFY_ERRORS.attachmentTooLarge : parseHeaderPublish(r.topic, r.sid, req.headers, body);
    else p = NTFY_ERRORS.notFound;
    if (isError(p)) {
      sendNtfyError(res, p);
      return;
    }
    const denied = authorize(who.user, p.topic, true);
    if (denied !== undefined) {
      sendNtfyError(res, denied);
      return;
    }
    const priority = parsePriority(p.priority);
    if (isError(priority)) {
      sendNtfyError(res, priority);
      return;
    }
    if (p.sequenceId !== '' && !SEQUENCE_ID_RE.test(p.sequenceId)) {
      sendNtfyError(res, NTFY_ERRORS.sequenceIdInvalid);
      return;
    }
    const oversize = Buffer.byteLength(p.message) > messageLimit;
    if (oversize && rejectOversize) {
      sendNtfyError(res, NTFY_ERRORS.attachmentsDisallowed);
      return;
    }
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
    sendText(res, 200, `${json}\n`);
  };

  const clearOrDelete = (req: IncomingMessage, res: ServerResponse, topic: string, sid: string, event: StoredMessage['event']): void => {
    const who = identify(req);
    if (isError(who)) {
      sendNtfyError(res, who);
      return;
    }
    const denied = authorize(who.user, topic, true);
    if (denied !== undefined) {
      sendNtfyError(res, denied);
      return;
    }
    if (!SEQUENCE_ID_RE.test(sid)) {
      sendNtfyError(res, NTFY_ERRORS.sequenceIdInvalid);
      return;
    }
    const time = Math.floor(Date.now() / 1000);
    const json = store({
      id: randomId(),
      sequence_id: sid,
      time,
      expires: time + CACHE_DURATION_SECONDS,
      event,
      topic,
      publishedBy: who.user,
      oversize: false,
      cached: true,
    });
    sendText(res, 200, `${json}\n`);
  };

  const poll = (req: IncomingMessage, res: ServerResponse, topic: string, query: string): void => {
    const who = identify(req);
    if (isError(who)) {
      sendNtfyError(res, who);
      return;
    }
    const denied = authorize(who.user, topic, false);
    if (denied !== undefined) {
      sendNtfyError(res, denied);
      return;
    }
    const since = new URLSearchParams(query).get('since') ?? 'all';
    let list = (byTopic.get(topic) ?? []).filter((e) => e.message.cached);
    if (since === 'none') list = [];
    else if (since === 'latest') list = list.slice(-1);
    else if (/^\d+$/.test(since)) list = list.filter((e) => e.message.time >= Number(since));
    else if (since !== 'all') list = list.slice(list.findIndex((e) => e.message.id === since) + 1);
    sendText(res, 200, list.map((e) => `${e.json}\n`).join(''), { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Access-Control-Allow-Origin': '*' });
  };

  return {
    handle(req, res) {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const r = route(req.method ?? 'GET', q < 0 ? url : url.slice(0, q));
      if (r.kind === 'publish-json' || r.kind === 'publish') {
        readBody(req, r.kind === 'publish-json' ? bodyLimit : HEADER_PUBLISH_LIMIT, (body, tooLarge) =>
          gate(req, res, () => publish(req, res, r, body, tooLarge)),
        );
        return;
      }
      readBody(req, 0, () => {
        if (r.kind === 'poll') poll(req, res, r.topic, q < 0 ? '' : url.slice(q + 1));
        else if (r.kind === 'clear') clearOrDelete(req, res, r.topic, r.sid, 'message_clear');
        else if (r.kind === 'delete') clearOrDelete(req, res, r.topic, r.sid, 'message_delete');
        else if (r.kind === 'health') sendText(res, 200, '{"healthy":true}\n');
        else sendNtfyError(res, NTFY_ERRORS.notFound);
      });
    },
    get oversizeMessages() {
      return oversizeMessages;
    },
    stored: () => all,
    storedIn: (topic) => byTopic.get(topic) ?? [],
    onStored(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    reset() {
      all = [];
      byTopic = new Map();
      oversizeMessages = 0;
      limiter?.clear();
    },
  };
}
