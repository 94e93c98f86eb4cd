import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { Agent, request as undiciRequest } from 'undici';
import { AnswerTooLargeError, readCapped } from './capped-body.ts';
import type { EndpointCheck, EndpointChecker, EndpointRequest } from './endpoint-types.ts';

/** A feed endpoint answered badly or not at all; the message names the endpoint, never its headers (an API key). */
export class EndpointError extends Error {
  readonly status: number | null;
  constructor(message: string, status: number | null, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EndpointError';
    this.status = status;
  }
}

/** `<Feed>__MaxAnswerBytes` when the request names none. */
export const DEFAULT_MAX_ANSWER_BYTES = 10 * 1024 * 1024;

/** Stores validators and a body hash per endpoint key in endpoint_checks. */
export function createEndpointChecker(db: Knex): EndpointChecker & { close(): Promise<void> } {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 8 });
  return {
    async check(req: EndpointRequest): Promise<EndpointCheck> {
      const seen = await db('endpoint_checks').where({ key: req.key }).first();
      const sameUrl = seen?.url === req.url;
      const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
      if (sameUrl && seen.etag) headers['if-none-match'] = seen.etag;
      if (sameUrl && seen.last_modified) headers['if-modified-since'] = seen.last_modified;
      const signal = req.signal ? AbortSignal.any([req.signal, AbortSignal.timeout(req.timeoutMs)]) : AbortSignal.timeout(req.timeoutMs);
      let status: number;
      let body: string;
      let etag: string | null;
      let lastModified: string | null;
      try {
        const response = await undiciRequest(req.url, { method: 'GET', headers, signal, dispatcher: agent, maxRedirections: 0 } as Parameters<
          typeof undiciRequest
        >[1]);
        status = response.statusCode;
        etag = typeof response.headers.etag === 'string' ? response.headers.etag : null;
        lastModified = typeof response.headers['last-modified'] === 'string' ? response.headers['last-modified'] : null;
        if (status === 304) {
          await response.body.dump();
        } else {
          // The limit holds however the body comes: a Content-Length past it is refused unread, a chunked body is cut at it.
          const limit = req.maxBodyBytes ?? DEFAULT_MAX_ANSWER_BYTES;
          const length = Number(response.headers['content-length'] ?? 0);
          try {
            if (length > limit) throw new AnswerTooLargeError(limit);
            body = (await readCapped(response.body, limit)).toString('utf8');
          } catch (error) {
            // Closes the connection: nothing more of the answer is read.
            response.body.destroy();
            throw error instanceof AnswerTooLargeError ? new EndpointError(`${req.key}: ${error.message}`, status, { cause: error }) : error;
          }
        }
      } catch (cause) {
        if (cause instanceof EndpointError) throw cause;
        const reason = (cause as Error)?.name === 'TimeoutError' ? `no answer within ${req.timeoutMs} ms` : ((cause as Error)?.message ?? String(cause));
        throw new EndpointError(`${req.key}: request failed: ${reason}`, null, { cause });
      }
      // An unchanged answer only moves the check time; what was seen stays as it was.
      const touch = () =>
        db.raw(
          `INSERT INTO endpoint_checks (key, url, last_status, last_checked_at) VALUES (?, ?, ?, now())
           ON CONFLICT (key) DO UPDATE SET last_status = EXCLUDED.last_status, last_checked_at = now()`,
          [req.key, req.url, status],
        );
      if (status === 304) {
        await touch();
        return { changed: false, status };
      }
      if (status < 200 || status >= 300) throw new EndpointError(`${req.key}: HTTP ${status}`, status);
      const sha = createHash('sha256').update(body!).digest('hex');
      if (sameUrl && seen.content_sha256 === sha) {
        await touch();
        return { changed: false, status };
      }
      return {
        changed: true,
        status,
        body: body!,
        markSeen: async (trx) => {
          await trx.raw(
            `INSERT INTO endpoint_checks (key, url, etag, last_modified, content_sha256, last_status, last_checked_at, last_changed_at)
             VALUES (?, ?, ?, ?, ?, ?, now(), now())
             ON CONFLICT (key) DO UPDATE SET url = EXCLUDED.url, etag = EXCLUDED.etag, last_modified = EXCLUDED.last_modified,
               content_sha256 = EXCLUDED.content_sha256, last_status = EXCLUDED.last_status, last_checked_at = now(), last_changed_at = now()`,
            [req.key, req.url, etag, lastModified, sha, status],
          );
        },
      };
    },
    close: () => agent.close(),
  };
}
