import { retryAfterSeconds } from '#plugin-api';
import { Pool, type Dispatcher } from 'undici';
import type { PublishBody } from './publish-payload.ts';
import type { PublishResult } from './publish-result.ts';

export interface PublisherOptions {
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer …`; no header when absent (the server then answers 403). */
  readonly token?: string;
  readonly timeoutMs: number;
  readonly connections: number;
}

export interface Publisher {
  /**
   * One JSON publish of `body` (already serialized); `done` is called once
   * with how it ended (never throws). `signal` is the dispatcher's
   * (shutdown). Callback-style on purpose: a batch of hundreds makes no
   * promise, timer or closure set per publish beyond the handler.
   */
  send(body: string, signal: AbortSignal, done: (result: PublishResult) => void): void;
  /** The same as a promise, for a single publish. */
  publish(body: PublishBody, signal: AbortSignal): Promise<PublishResult>;
  close(): Promise<void>;
}

/** Error bodies are small JSON; a proxy's HTML page is not worth keeping whole. */
const ERROR_BODY_LIMIT = 16 * 1024;
/** How often the publishes in flight are checked against their deadline. */
const TIMEOUT_SWEEP_MS = 100;

/**
 * One publish in flight, as undici's dispatch handler: it settles once,
 * whichever comes first (answer, network error, timeout, shutdown). Its
 * timeout counts from when the request is written to a connection, not
 * from when it was handed to the pool: a request waiting its turn behind
 * others on a connection is not late, and a slow but healthy server gets
 * no publish twice for it.
 */
class Flight implements Dispatcher.DispatchHandler {
  /** performance.now() at which it is overdue; Infinity until the request is on the wire. */
  deadline = Infinity;
  readonly #timeoutMs: number;
  readonly #done: (result: PublishResult) => void;
  readonly #forget: (flight: Flight) => void;
  readonly #onWire: (flight: Flight) => void;
  #controller: Dispatcher.DispatchController | undefined;
  #settled = false;
  #startedAt = 0;
  #status = 0;
  #retryAfter: number | undefined;
  #errorChunks: Buffer[] | undefined;
  #errorBytes = 0;

  constructor(timeoutMs: number, done: (result: PublishResult) => void, forget: (flight: Flight) => void, onWire: (flight: Flight) => void) {
    this.#timeoutMs = timeoutMs;
    this.#done = done;
    this.#forget = forget;
    this.#onWire = onWire;
  }

  stop(result: PublishResult): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#forget(this);
    // Stops the request on the wire; one not yet started is stopped in onRequestStart.
    if (result.kind !== 'answered' && result.kind !== 'network') this.#controller?.abort(new Error(result.kind));
    this.#done(result);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#settled) {
      controller.abort(new Error('publish already given up'));
      return;
    }
    this.#startedAt = performance.now();
    this.deadline = this.#startedAt + this.#timeoutMs;
    this.#onWire(this);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.#status = statusCode;
    if (statusCode < 200 || statusCode >= 300) {
      this.#errorChunks = [];
      this.#retryAfter = retryAfterSeconds(headers?.['retry-after'], new Date());
    }
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#errorChunks !== undefined && this.#errorBytes < ERROR_BODY_LIMIT) {
      this.#errorChunks.push(chunk);
      this.#errorBytes += chunk.length;
    }
  }

  onResponseEnd(): void {
    const error = this.#errorChunks === undefined ? undefined : parseErrorBody(Buffer.concat(this.#errorChunks).subarray(0, ERROR_BODY_LIMIT).toString('utf8'));
    const wireMs = performance.now() - this.#startedAt;
    const retryAfter = this.#retryAfter === undefined ? {} : { retryAfterSeconds: this.#retryAfter };
    this.stop(
      error === undefined
        ? { kind: 'answered', status: this.#status, wireMs, ...retryAfter }
        : { kind: 'answered', status: this.#status, wireMs, ...retryAfter, ...error },
    );
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    const error = err as NodeJS.ErrnoException;
    this.stop({ kind: 'network', code: error.code ?? error.name, message: oneLine(error.message) });
  }
}

/**
 * JSON publishes (`POST {BaseUrl}/`) over one keep-alive undici Pool.
 *
 * Why `pool.dispatch` with a handler object rather than `pool.request`: no
 * AbortController, body stream or EventTarget listener per publish, which in
 * a batch of hundreds is most of the client's own cost. Every response body
 * is consumed (success bodies dropped as they come), so the connection goes
 * back to the pool. Timeouts: every publish has the same, counted from
 * when its request is written, so the flights on the wire are in deadline
 * order and one timer sweeps the overdue ones from the front (undici's
 * headersTimeout runs on a coarse clock, up to ~1 s late).
 */
export function createPublisher(options: PublisherOptions): Publisher {
  const url = new URL(options.baseUrl);
  // The server may live under a path (https://host/ntfy): publish to its root.
  const path = `${url.pathname.replace(/\/+$/, '')}/`;
  const origin = url.origin;
  const pool = new Pool(origin, { connections: options.connections });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const timeout: PublishResult = { kind: 'timeout', seconds: options.timeoutMs / 1000 };
  const aborted: PublishResult = { kind: 'aborted' };
  // On the wire, in the order their requests were written, so in deadline order: the sweep looks at the front only.
  const inFlight = new Set<Flight>();
  const forget = (flight: Flight) => void inFlight.delete(flight);
  const onWire = (flight: Flight) => {
    inFlight.add(flight);
    sweeper ??= setInterval(sweep, Math.min(TIMEOUT_SWEEP_MS, options.timeoutMs));
  };
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () => {
    const now = performance.now();
    for (const flight of inFlight) {
      if (flight.deadline > now) break;
      flight.stop(timeout);
    }
    if (inFlight.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  // One listener per dispatcher signal, not one per publish: it stops every flight of that signal.
  const flightsBySignal = new WeakMap<AbortSignal, Set<Flight>>();
  function flightsOf(signal: AbortSignal): Set<Flight> {
    let flights = flightsBySignal.get(signal);
    if (flights === undefined) {
      const created = new Set<Flight>();
      flightsBySignal.set(signal, (flights = created));
      signal.addEventListener(
        'abort',
        () => {
          for (const flight of [...created]) flight.stop(aborted);
        },
        { once: true },
      );
    }
    return flights;
  }

  function send(body: string, signal: AbortSignal, done: (result: PublishResult) => void): void {
    if (signal.aborted) {
      done(aborted);
      return;
    }
    const ofSignal = flightsOf(signal);
    const flight: Flight = new Flight(
      options.timeoutMs,
      done,
      (ended) => {
        forget(ended);
        ofSignal.delete(ended);
      },
      onWire,
    );
    ofSignal.add(flight);
    try {
      pool.dispatch({ origin, method: 'POST', path, headers, body }, flight);
    } catch (err) {
      flight.onResponseError(undefined as never, err as Error);
    }
  }

  return {
    send,
    publish: (body, signal) => new Promise((resolve) => send(JSON.stringify(body), signal, resolve)),
    close: async () => {
      clearInterval(sweeper);
      await pool.close();
    },
  };
}

/** ntfy's `{code, http, error}`; anything else (a proxy's page) gives neither. */
function parseErrorBody(text: string): { code?: number; error?: string } {
  try {
    const parsed = JSON.parse(text.split('\n')[0]) as { code?: unknown; error?: unknown };
    return {
      ...(typeof parsed.code === 'number' ? { code: parsed.code } : {}),
      ...(typeof parsed.error === 'string' ? { error: oneLine(parsed.error) } : {}),
    };
  } catch {
    return {};
  }
}

/** Reasons go to the ledger and logs: one short line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}
