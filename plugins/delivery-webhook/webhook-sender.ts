import { Agent, errors } from 'undici';
import { publicOnlyLookup } from '#plugin-api';
import type { WebhookResult } from './webhook-result.ts';

export interface SignedPost {
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface WebhookSender {
  post(request: SignedPost, signal?: AbortSignal): Promise<WebhookResult>;
  close(): Promise<void>;
}

/**
 * POSTs over keep-alive connections per receiver (undici Agent), never
 * following a redirect, connecting only to public addresses unless the
 * host is listed (checked on the addresses the name resolves to when the
 * connection opens). Returns what happened, never throws.
 */
export function createWebhookSender(options: { allowedHosts: readonly string[]; timeoutSeconds: number; connectionsPerHost: number }): WebhookSender {
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
        const response = await agent.request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: request.headers,
          body: request.body,
          signal,
        });
        // The answer's body is not needed: read none of it (a receiver cannot make the service hold a large one).
        await response.body.dump({ limit: 16 * 1024 }).catch(() => undefined);
        const retryAfter = Number(response.headers['retry-after']);
        return { kind: 'answered', status: response.statusCode, ...(Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterSeconds: retryAfter } : {}) };
      } catch (err) {
        if (signal?.aborted) return { kind: 'aborted' };
        const code = (err as { code?: string }).code ?? 'ERROR';
        if (code === 'EADDRNOTPUBLIC') return { kind: 'refused', reason: 'the receiver resolves to no public address' };
        if (err instanceof errors.HeadersTimeoutError || err instanceof errors.BodyTimeoutError || err instanceof errors.ConnectTimeoutError) {
          return { kind: 'timeout', seconds: options.timeoutSeconds };
        }
        return { kind: 'network', code };
      }
    },
    close: () => agent.close(),
  };
}
