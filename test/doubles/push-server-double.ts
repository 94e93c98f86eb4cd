// A test double of an ntfy (>= 2.16) push server over real HTTP on 127.0.0.1, for the project's
// own tests and benchmarks: the demo's ntfy-compatible server (demo/push-inbox/ntfy-server.ts,
// which holds the protocol and its decisions) with switchable faults in front of its publishes.
// Nothing runs on import.
//
// Faults (failNext/delayNext/dropNext) apply to message publishes only, in the order queued.
// A failed or dropped publish is not stored. A delayed publish is processed (checked, stored)
// when its answer is written after the delay, whether or not the client is still waiting: a
// client that timed out and retried leaves two stored messages with the same sequence_id, as
// against a real server. reset() and close() abort delayed publishes still waiting.

import { createServer, type IncomingMessage } from 'node:http';
import type { AclEntry, Permission, RateLimit } from '../../demo/push-inbox/ntfy-acl.ts';
import { faultError, type NtfyError } from '../../demo/push-inbox/ntfy-protocol.ts';
import { createNtfyServer, sendNtfyError, type PublishGate, type StoredEvent, type StoredMessage } from '../../demo/push-inbox/ntfy-server.ts';
import { listenOnLoopback } from '../../demo/web/loopback.ts';

export type { AclEntry, Permission, RateLimit } from '../../demo/push-inbox/ntfy-acl.ts';
export { NTFY_ERRORS, type NtfyError } from '../../demo/push-inbox/ntfy-protocol.ts';
export { CACHE_DURATION_SECONDS, type StoredMessage } from '../../demo/push-inbox/ntfy-server.ts';

/** Default access token (`tk_` + 29 characters), mapped to user {@link DEFAULT_PUBLISHER_USER}. */
export const DEFAULT_PUBLISHER_TOKEN = 'tk_doubletestpublishertoken00001';
export const DEFAULT_PUBLISHER_USER = 'publisher';
export const DEFAULT_ACL: readonly AclEntry[] = [
  { user: DEFAULT_PUBLISHER_USER, topic: '*', permission: 'read-write' },
  { user: '*', topic: '*', permission: 'read-only' },
];

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
  /** What an over-long message text does (see ntfy-server.ts). Default 'flag'. */
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

export interface PushServerDouble {
  readonly baseUrl: string;
  /** Every HTTP request received, answered or not. */
  readonly requestCount: number;
  /** Message publish requests received (before any check). */
  readonly publishRequestCount: number;
  /** Publishes held by delayNext that have not yet landed (stored and answered, or their client gone). */
  readonly delayedPublishes: number;
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

const JSON_HEADERS = { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' };

/** Starts a double on 127.0.0.1 and a random port. */
export async function startPushServerDouble(options: PushServerDoubleOptions = {}): Promise<PushServerDouble> {
  let faults: { fault: Fault; remaining: number }[] = [];
  const waiting = new Set<{ timer: NodeJS.Timeout; req: IncomingMessage }>();
  let requestCount = 0;
  let publishRequestCount = 0;

  const nextFault = (): Fault | undefined => {
    const head = faults[0];
    if (head === undefined) return undefined;
    if (--head.remaining <= 0) faults.shift();
    return head.fault;
  };

  const gate: PublishGate = (req, res, proceed) => {
    publishRequestCount++;
    const fault = nextFault();
    if (fault === undefined) return proceed();
    if (fault.kind === 'drop') {
      req.socket.destroy();
    } else if (fault.kind === 'fail') {
      const headers = fault.retryAfterSeconds === undefined ? JSON_HEADERS : { ...JSON_HEADERS, 'Retry-After': String(fault.retryAfterSeconds) };
      sendNtfyError(res, fault.error, headers);
    } else {
      const entry = {
        req,
        timer: setTimeout(() => {
          waiting.delete(entry);
          proceed();
        }, fault.ms),
      };
      waiting.add(entry);
    }
  };

  const ntfy = createNtfyServer(
    {
      ...options,
      tokens: options.tokens ?? { [DEFAULT_PUBLISHER_TOKEN]: DEFAULT_PUBLISHER_USER },
      acl: options.acl ?? DEFAULT_ACL,
      defaultAccess: options.defaultAccess ?? 'deny-all',
    },
    gate,
  );
  const server = createServer((req, res) => {
    requestCount++;
    ntfy.handle(req, res);
  });
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  const port = await listenOnLoopback(server);

  const abortWaiting = (): void => {
    for (const entry of waiting) {
      clearTimeout(entry.timer);
      entry.req.socket.destroy();
    }
    waiting.clear();
  };
  const onlyMessages = (list: readonly StoredEvent[]): StoredMessage[] => list.filter((e) => e.message.event === 'message').map((e) => e.message);
  const queue = (n: number, fault: Fault): void => {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`fault count must be a non-negative integer, got ${n}`);
    if (n > 0) faults.push({ fault, remaining: n });
  };

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get requestCount() {
      return requestCount;
    },
    get publishRequestCount() {
      return publishRequestCount;
    },
    get delayedPublishes() {
      return waiting.size;
    },
    get oversizeMessages() {
      return ntfy.oversizeMessages;
    },
    messages: (topic) => onlyMessages(ntfy.storedIn(topic)),
    allMessages: () => onlyMessages(ntfy.stored()),
    events: (topic) => ntfy.storedIn(topic).map((e) => e.message),
    failNext: (n, f) => queue(n, { kind: 'fail', error: faultError(f.status, f.code), retryAfterSeconds: f.retryAfterSeconds }),
    delayNext: (n, ms) => queue(n, { kind: 'delay', ms }),
    dropNext: (n) => queue(n, { kind: 'drop' }),
    reset() {
      abortWaiting();
      ntfy.reset();
      faults = [];
      requestCount = 0;
      publishRequestCount = 0;
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
