// Wire-level rules of an ntfy (>= 2.16) server, as reproduced by the local ntfy-compatible server
// (the demo's push inbox and the tests' push server double):
// error table, topic and sequence-id rules, parsing of JSON and header publishes, routes, ids.
// Error texts and codes follow ntfy's server/errors.go; the order of checks follows server.go
// (JSON body -> topic regex -> reserved topic -> ACL -> priority / sequence id).

import type { IncomingMessage } from 'node:http';
import { randomFillSync } from 'node:crypto';

export interface NtfyError {
  readonly code?: number;
  readonly http: number;
  readonly error: string;
  readonly link?: string;
}

const LIMITS_LINK = 'https://ntfy.sh/docs/publish/#limitations';
const AUTH_LINK = 'https://ntfy.sh/docs/publish/#authentication';

/** ntfy's own errors (errors.go). `link` is omitted where ntfy has none (its JSON tag is omitempty). */
export const NTFY_ERRORS = {
  priorityInvalid: { code: 40007, http: 400, error: 'invalid priority parameter', link: 'https://ntfy.sh/docs/publish/#message-priority' },
  topicInvalid: { code: 40009, http: 400, error: 'invalid request: topic invalid' },
  topicDisallowed: { code: 40010, http: 400, error: 'invalid request: topic name is not allowed' },
  attachmentsDisallowed: { code: 40014, http: 400, error: 'invalid request: attachments not allowed', link: 'https://ntfy.sh/docs/config/#attachments' },
  jsonInvalid: { code: 40024, http: 400, error: 'invalid request: request body must be valid JSON' },
  sequenceIdInvalid: { code: 40049, http: 400, error: 'invalid request: sequence ID invalid' },
  unauthorized: { code: 40101, http: 401, error: 'unauthorized', link: AUTH_LINK },
  forbidden: { code: 40301, http: 403, error: 'forbidden', link: AUTH_LINK },
  notFound: { code: 40401, http: 404, error: 'page not found' },
  attachmentTooLarge: { code: 41301, http: 413, error: 'attachment too large, or bandwidth limit reached', link: LIMITS_LINK },
  jsonBodyTooLarge: { code: 41303, http: 413, error: 'JSON body too large' },
  tooManyRequests: { code: 42901, http: 429, error: 'limit reached: too many requests, please be nice', link: LIMITS_LINK },
  messageQuota: { code: 42908, http: 429, error: 'limit reached: daily message quota reached', link: LIMITS_LINK },
  internal: { code: 50001, http: 500, error: 'internal server error' },
} as const satisfies Record<string, NtfyError>;

/** Error for an injected fault: ntfy's own error where one fits, a proxy-like JSON otherwise (503). */
export function faultError(status: number, code: number | undefined): NtfyError {
  if (code === undefined) {
    if (status === 429) return NTFY_ERRORS.tooManyRequests;
    if (status === 500) return NTFY_ERRORS.internal;
  } else {
    const known = Object.values(NTFY_ERRORS).find((e) => e.code === code && e.http === status);
    if (known !== undefined) return known;
  }
  return { code, http: status, error: status === 503 ? 'service unavailable' : 'injected fault' };
}

/** One error body as ntfy writes it: the JSON object and a newline. */
export function errorBody(e: NtfyError): string {
  return `${JSON.stringify({ code: e.code, http: e.http, error: e.error, link: e.link })}\n`;
}

export const TOPIC_RE = /^[-_A-Za-z0-9]{1,64}$/;
export const SEQUENCE_ID_RE = /^[-_A-Za-z0-9]{1,64}$/;
/** ntfy's default `disallowed topics` (config.go DefaultDisallowedTopics). */
export const RESERVED_TOPICS: ReadonlySet<string> = new Set(['docs', 'static', 'file', 'app', 'metrics', 'account', 'settings', 'signup', 'login', 'v1']);
/** Message text that ntfy sends when the body is empty. */
export const EMPTY_MESSAGE_BODY = 'triggered';

/** A publish after parsing, before the per-topic checks (reserved name, ACL) and value checks. */
export interface PublishRequest {
  topic: string;
  message: string;
  title: string;
  /** Raw priority text as ntfy hands it to ParsePriority ('' when not sent). */
  priority: string;
  /** Tags joined by commas, as ntfy turns JSON tags into the X-Tags header. */
  tags: string;
  click: string;
  sequenceId: string;
  markdown: boolean;
  actions: unknown[];
  delay: string;
  cache: boolean;
}

type FieldType = 'string' | 'boolean' | 'integer' | 'string[]' | 'object[]';
const JSON_FIELDS: Readonly<Record<string, FieldType>> = {
  topic: 'string',
  message: 'string',
  title: 'string',
  tags: 'string[]',
  priority: 'integer',
  click: 'string',
  actions: 'object[]',
  markdown: 'boolean',
  delay: 'string',
  cache: 'string',
  firebase: 'string',
  sequence_id: 'string',
  attach: 'string',
  filename: 'string',
  icon: 'string',
  email: 'string',
  call: 'string',
  template: 'string',
};

function hasType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isSafeInteger(value);
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' || v === null);
    case 'object[]':
      return Array.isArray(value) && value.every((v) => v === null || (typeof v === 'object' && !Array.isArray(v)));
  }
}

/**
 * JSON publish (`POST /`), as ntfy's transformBodyJSON: the body must decode into its publishMessage
 * struct (Go's decoder: wrong types fail, null leaves the zero value, unknown keys are ignored),
 * then the topic must match the topic regex.
 */
export function parseJsonPublish(body: Buffer): PublishRequest | NtfyError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return NTFY_ERRORS.jsonInvalid;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return NTFY_ERRORS.jsonInvalid;
  const obj = parsed as Record<string, unknown>;
  for (const key in obj) {
    const type = JSON_FIELDS[key];
    const value = obj[key];
    if (type !== undefined && value !== null && !hasType(value, type)) return NTFY_ERRORS.jsonInvalid;
  }
  const str = (key: string): string => (typeof obj[key] === 'string' ? (obj[key] as string) : '');
  const topic = str('topic');
  if (!TOPIC_RE.test(topic)) return NTFY_ERRORS.topicInvalid;
  const priority = typeof obj.priority === 'number' && obj.priority !== 0 ? String(obj.priority) : '';
  const tags = Array.isArray(obj.tags) ? obj.tags.filter((t) => typeof t === 'string').join(',') : '';
  return {
    topic,
    message: str('message') === '' ? EMPTY_MESSAGE_BODY : str('message'),
    title: str('title'),
    priority,
    tags,
    click: str('click'),
    sequenceId: str('sequence_id'),
    markdown: obj.markdown === true,
    actions: Array.isArray(obj.actions) ? obj.actions.filter((a) => a !== null) : [],
    delay: str('delay'),
    cache: !isNo(str('cache')),
  };
}

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, ...names: string[]): string {
  for (const name of names) {
    const value = headers[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return '';
}

function isNo(value: string): boolean {
  const v = value.trim().toLowerCase();
  return v === 'no' || v === 'false' || v === '0';
}

/** Header publish (`POST /<topic>` or `/<topic>/<sid>`): body is the message, metadata in headers. */
export function parseHeaderPublish(topic: string, pathSequenceId: string, headers: Headers, body: Buffer): PublishRequest {
  const text = body.toString('utf8');
  const markdown = header(headers, 'x-markdown', 'markdown', 'md');
  return {
    topic,
    message: text === '' ? EMPTY_MESSAGE_BODY : text,
    title: header(headers, 'x-title', 'title', 't'),
    priority: header(headers, 'x-priority', 'priority', 'prio', 'p'),
    tags: header(headers, 'x-tags', 'tags', 'tag', 'ta'),
    click: header(headers, 'x-click', 'click'),
    sequenceId: pathSequenceId !== '' ? pathSequenceId : header(headers, 'x-sequence-id', 'sequence-id', 'sid'),
    markdown: markdown !== '' && !isNo(markdown),
    actions: [],
    delay: header(headers, 'x-delay', 'delay', 'x-at', 'at', 'x-in', 'in'),
    cache: !isNo(header(headers, 'x-cache', 'cache')),
  };
}

/** ntfy's util.ParsePriority: 0 = not sent; names allowed; anything else is 40007. */
export function parsePriority(raw: string): number | NtfyError {
  switch (raw.trim().toLowerCase()) {
    case '':
      return 0;
    case '1':
    case 'min':
      return 1;
    case '2':
    case 'low':
      return 2;
    case '3':
    case 'default':
      return 3;
    case '4':
    case 'high':
      return 4;
    case '5':
    case 'max':
    case 'urgent':
      return 5;
    default:
      return NTFY_ERRORS.priorityInvalid;
  }
}

/** ntfy splits the tag list on commas, drops empty entries and trims each tag. */
export function parseTags(joined: string): string[] {
  const tags: string[] = [];
  for (const part of joined.split(',')) {
    if (part !== '') tags.push(part.trim());
  }
  return tags;
}

export function isError(value: unknown): value is NtfyError {
  return typeof value === 'object' && value !== null && 'http' in value && 'error' in value;
}

/** The requests the server serves; anything else is 404 40401 like ntfy. */
export type Route =
  | { kind: 'publish-json' }
  | { kind: 'publish'; topic: string; sid: string }
  | { kind: 'clear' | 'delete'; topic: string; sid: string }
  | { kind: 'poll'; topic: string }
  | { kind: 'health' }
  | { kind: 'not-found' };

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const idPool = Buffer.alloc(4096);
let idPoolAt = idPool.length;

export function randomId(): string {
  let id = '';
  while (id.length < 12) {
    if (idPoolAt >= idPool.length) {
      randomFillSync(idPool);
      idPoolAt = 0;
    }
    const byte = idPool[idPoolAt++];
    if (byte < 248) id += ID_ALPHABET[byte % 62]; // 248 = 4 * 62: no modulo bias
  }
  return id;
}

/** What a request is, from its method and path (the query string removed). */
export function route(method: string, path: string): Route {
  const parts = path.split('/');
  if ((method === 'POST' || method === 'PUT') && path === '/') return { kind: 'publish-json' };
  if (method === 'GET' && path === '/v1/health') return { kind: 'health' };
  const [, topic = '', second = '', third] = parts;
  if (!TOPIC_RE.test(topic) || parts.length > 4) return { kind: 'not-found' };
  if ((method === 'POST' || method === 'PUT') && parts.length === 2) return { kind: 'publish', topic, sid: '' };
  if (method === 'GET' && parts.length === 3 && second === 'json') return { kind: 'poll', topic };
  if (second === '') return { kind: 'not-found' };
  if ((method === 'POST' || method === 'PUT') && parts.length === 3) return { kind: 'publish', topic, sid: second };
  if (method === 'PUT' && third === 'clear') return { kind: 'clear', topic, sid: second };
  if (method === 'DELETE' && parts.length === 3) return { kind: 'delete', topic, sid: second };
  return { kind: 'not-found' };
}

const EMPTY_BODY = Buffer.alloc(0);

/** Reads the whole body; past `limit` bytes it keeps draining (the connection stays usable) but keeps nothing. */
export function readBody(req: IncomingMessage, limit: number, done: (body: Buffer, tooLarge: boolean) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > limit) done(EMPTY_BODY, true);
    else done(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size), false);
  });
  req.on('error', () => {});
}
