import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fresh from 'fresh';
import { noContent } from '../plugin-api/response-schemas.ts';

export interface CacheableDocument {
  readonly body: string;
  readonly contentType: string;
  /** When what the document shows last changed; none: no Last-Modified. */
  readonly lastModified: Date | null;
  readonly cacheControl: string;
}

/** A strong validator: the same bytes give the same tag on every instance. */
/** The 304 answer of every cacheable view, as the OpenAPI document shows it. */
export const NOT_MODIFIED = noContent('Not modified since the If-None-Match / If-Modified-Since of the request.');

const entityTag = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

/** HTTP dates have whole seconds; a validator finer than that would never compare equal. */
const httpDate = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000).toUTCString();

/**
 * Answers a GET (or HEAD) for a generated document with ETag, Last-Modified
 * and Cache-Control, and 304 without a body when the client's copy is still
 * current: If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2),
 * as `fresh` decides.
 */
export function sendCacheable(request: FastifyRequest, reply: FastifyReply, document: CacheableDocument): FastifyReply {
  const headers: Record<string, string> = { etag: entityTag(document.body), 'cache-control': document.cacheControl };
  if (document.lastModified) headers['last-modified'] = httpDate(document.lastModified);
  reply.headers(headers);
  if (fresh(request.headers, headers)) return reply.code(304).send();
  return reply.type(document.contentType).send(document.body);
}
