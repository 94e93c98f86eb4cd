/**
 * The HTTP server's timeouts, derived from `Server__RequestTimeoutSeconds`
 * (pure, so the rules are tested without a socket). Why each one:
 * - requestTimeout: the whole request (headers and body) must arrive in
 *   time, or Node answers 408 and closes; a client sending `Content-Length:
 *   100` and 5 bytes no longer holds a socket for ever.
 * - headersTimeout: the headers alone, never longer than the request (Node
 *   requires headersTimeout <= requestTimeout).
 * - connectionsCheckingInterval: how often Node looks for requests over
 *   those limits (its default, 30 s, would let one overrun by as much).
 * - keepAliveTimeout: an idle keep-alive connection is closed after 65 s,
 *   longer than nginx's default upstream keepalive_timeout (60 s), so the
 *   proxy never reuses a connection the service is closing.
 * - connectionTimeout: a socket silent for twice the request timeout while
 *   a request is handled is dropped (handlers answer well within that).
 */
export interface ServerTimeouts {
  requestTimeout: number;
  connectionTimeout: number;
  keepAliveTimeout: number;
  http: { headersTimeout: number; connectionsCheckingInterval: number };
}

const KEEP_ALIVE_MS = 65_000;
const MAX_HEADERS_MS = 60_000;

export function serverTimeouts(requestTimeoutSeconds: number): ServerTimeouts {
  const requestTimeout = requestTimeoutSeconds * 1000;
  return {
    requestTimeout,
    connectionTimeout: 2 * requestTimeout,
    keepAliveTimeout: KEEP_ALIVE_MS,
    http: {
      headersTimeout: Math.min(requestTimeout, MAX_HEADERS_MS),
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(requestTimeout / 4))),
    },
  };
}
