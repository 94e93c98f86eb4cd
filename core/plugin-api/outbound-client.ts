import { retryAfterSeconds } from './retry-after.ts';
import { Agent, errors } from 'undici';
import { isIP } from 'node:net';
import { isListedHost, isPublicAddress, publicOnlyLookup } from './outbound-url.ts';

/** What one POST to an address people gave came to (answered, or why not), before a target judges it. */
export type OutboundResult =
  | { readonly kind: 'answered'; readonly status: number; readonly retryAfterSeconds?: number }
  | { readonly kind: 'timeout'; readonly seconds: number }
  | { readonly kind: 'aborted' }
  /** The host resolves to no public address (and is not listed): nothing was sent. */
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'network'; readonly code: string };

export interface OutboundPost {
  readonly url: string;
  readonly body: string | Buffer;
  readonly headers: Readonly<Record<string, string>>;
}

export interface OutboundClient {
  post(request: OutboundPost, signal?: AbortSignal): Promise<OutboundResult>;
  close(): Promise<void>;
}

/**
 * POSTs to URLs people gave (webhooks, browsers' push endpoints) over
 * keep-alive connections per host (an undici Agent): never following a
 * redirect, connecting only to the public addresses a name resolves to
 * when the connection opens unless the host is listed, reading at most
 * 16 KiB of an answer. Returns what happened, never throws.
 */
export function createOutboundClient(options: { allowedHosts: readonly string[]; timeoutSeconds: number; connectionsPerHost: number }): OutboundClient {
  const timeoutMs = options.timeoutSeconds * 1000;
  const agent = new Agent({
    connections: options.connectionsPerHost,
    keepAliveTimeout: 30_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { lookup: publicOnlyLookup(options.allowedHosts), timeout: timeoutMs },
  });
  return {
    async post(request, signal) {
      try {
        const url = new URL(request.url);
        // Node connects to an IP literal without a lookup: it is judged here, at each post (the list may have changed since the check at create).
        const literal = url.hostname.replace(/^\[|\]$/g, '');
        if (isIP(literal) !== 0 && !isPublicAddress(literal) && !isListedHost(literal, options.allowedHosts)) {
          return { kind: 'refused', reason: `${url.hostname} is not a public address` };
        }
        const response = await agent.request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: request.headers,
          body: request.body,
          signal,
        });
        await response.body.dump({ limit: 16 * 1024 }).catch(() => undefined);
        const retryAfter = retryAfterSeconds(response.headers['retry-after'], new Date());
        return { kind: 'answered', status: response.statusCode, ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }) };
      } catch (err) {
        if (signal?.aborted) return { kind: 'aborted' };
        const code = (err as { code?: string }).code ?? 'ERROR';
        if (code === 'EADDRNOTPUBLIC') return { kind: 'refused', reason: `${new URL(request.url).hostname} resolves to no public address` };
        if (err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError || err instanceof errors.ConnectTimeoutError) {
          return { kind: 'timeout', seconds: options.timeoutSeconds };
        }
        return { kind: 'network', code };
      }
    },
    close: () => agent.close(),
  };
}
