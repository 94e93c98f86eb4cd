import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactUrl } from './redaction.ts';

/**
 * Probed every few seconds by load balancers, monitors and Prometheus, or
 * fetched with every page view (scripts, stylesheets, icons): their lines
 * are noise at info.
 */
const QUIET_ROUTES: ReadonlySet<string> = new Set(['/', '/health', '/health/ready', '/metrics', '/favicon.ico', '/favicon.svg']);
const QUIET_PREFIXES = ['/web/'];
const isQuiet = (route: string | undefined) => route !== undefined && (QUIET_ROUTES.has(route) || QUIET_PREFIXES.some((prefix) => route.startsWith(prefix)));

declare module 'fastify' {
  interface FastifyRequest {
    /** Why a request was refused (a 4xx's message, which names the field or the limit): written on its request line. */
    refusal?: string;
  }
}

/**
 * Fastify's request lines, one per request instead of two ("incoming
 * request" and "request completed"): written when the request is
 * answered, with method, path (tokens in the query redacted), status,
 * duration and the client's address (the one the per-address limits count:
 * X-Forwarded-For read entry by entry behind a trusted proxy), at info, or at debug for the probes above. A request Fastify
 * finds no route for is that same one line (a 404).
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url;
    const level = error ? 'error' : isQuiet(route) ? 'debug' : 'info';
    const url = redactUrl(request.url);
    const ms = Math.round(reply.elapsedTime);
    const reason = request.refusal === undefined ? {} : { reason: request.refusal };
    // Decorated by the input guards; a request that failed before routing may lack a socket.
    const client = (request as { clientAddress?: string }).clientAddress;
    reply.log[level](
      { method: request.method, url, statusCode: reply.statusCode, ms, ...(client ? { client } : {}), ...reason, ...(error ? { err: error } : {}) },
      `${request.method} ${url} ${reply.statusCode} ${ms} ms${request.refusal === undefined ? '' : `: ${request.refusal}`}`,
    );
  }
}
