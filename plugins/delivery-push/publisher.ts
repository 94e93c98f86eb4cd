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
  /** One JSON publish; never throws: every end is a PublishResult. `signal` is the dispatcher's (shutdown). */
  publish(body: PublishBody, signal: AbortSignal): Promise<PublishResult>;
  close(): Promise<void>;
}

/** Error bodies are small JSON; a proxy's HTML page is not worth keeping whole. */
const ERROR_BODY_LIMIT = 16 * 1024;

/** One publish in flight: settles once, whichever comes first (answer, error, timeout, shutdown). */
interface Flight {
  stop(result: PublishResult): void;
}

/**
 * JSON publishes (`POST {BaseUrl}/`) over one keep-alive undici Pool.
 *
 * Why `pool.dispatch` with a small handler rather than `pool.request`: no
 * AbortController, body stream or EventTarget listener per publish, which in
 * a batch of hundreds is most of the client's own cost. Every response body
 * is consumed (success bodies dropped as they come), so the connection goes
 * back to the pool. The timeout is a timer of our own: undici's
 * headersTimeout runs on a coarse clock (up to ~1 s late).
 */
export function createPublisher(options: PublisherOptions): Publisher {
  const url = new URL(options.baseUrl);
  // The server may live under a path (https://host/ntfy): publish to its root.
  const path = `${url.pathname.replace(/\/+$/, '')}/`;
  const pool = new Pool(url.origin, { connections: options.connections });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const timeoutSeconds = options.timeoutMs / 1000;
  // One listener per dispatcher signal, not one per publish: it stops every flight of that signal.
  const flightsBySignal = new WeakMap<AbortSignal, Set<Flight>>();

  function flightsOf(signal: AbortSignal): Set<Flight> {
    let flights = flightsBySignal.get(signal);
    if (flights === undefined) {
      const created = new Set<Flight>();
      flightsBySignal.set(signal, (flights = created));
      signal.addEventListener('abort', () => {
        for (const flight of [...created]) flight.stop({ kind: 'aborted' });
      }, { once: true });
    }
    return flights;
  }

  function publish(body: PublishBody, signal: AbortSignal): Promise<PublishResult> {
    if (signal.aborted) return Promise.resolve({ kind: 'aborted' });
    return new Promise<PublishResult>((resolve) => {
      const flights = flightsOf(signal);
      let controller: Dispatcher.DispatchController | undefined;
      let settled = false;
      let status = 0;
      let errorChunks: Buffer[] | undefined;
      let errorBytes = 0;
      const timer = setTimeout(() => flight.stop({ kind: 'timeout', seconds: timeoutSeconds }), options.timeoutMs);
      const flight: Flight = {
        stop(result) {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          flights.delete(flight);
          // Stops the request on the wire; one not yet started is stopped in onRequestStart.
          if (result.kind !== 'answered' && result.kind !== 'network') controller?.abort(new Error(result.kind));
          resolve(result);
        },
      };
      flights.add(flight);
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(started) {
          controller = started;
          if (settled) started.abort(new Error('publish already given up'));
        },
        onResponseStart(_c, statusCode) {
          status = statusCode;
          if (statusCode < 200 || statusCode >= 300) errorChunks = [];
        },
        onResponseData(_c, chunk) {
          if (errorChunks !== undefined && errorBytes < ERROR_BODY_LIMIT) {
            errorChunks.push(chunk);
            errorBytes += chunk.length;
          }
        },
        onResponseEnd() {
          const error = errorChunks === undefined ? {} : parseErrorBody(Buffer.concat(errorChunks).subarray(0, ERROR_BODY_LIMIT).toString('utf8'));
          flight.stop({ kind: 'answered', status, ...error });
        },
        onResponseError(_c, err) {
          const error = err as NodeJS.ErrnoException;
          flight.stop({ kind: 'network', code: error.code ?? error.name, message: oneLine(error.message) });
        },
      };
      try {
        pool.dispatch({ origin: url.origin, method: 'POST', path, headers, body: JSON.stringify(body) }, handler);
      } catch (err) {
        handler.onResponseError!(undefined as never, err as Error);
      }
    });
  }

  return {
    publish,
    close: () => pool.close(),
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
