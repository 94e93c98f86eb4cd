import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './error-body.ts';

/** Fastify's default: a longer path segment is a 414. */
export const MAX_PARAM_LENGTH = 100;

/** Fastify's own refusals, said in words that name what was wrong and what would do (pure). */
export function frameworkMessage(
  code: string | undefined,
  request: { headers: Record<string, unknown> },
  limits: { maxParamLength: number; bodyLimit: number; mediaTypes: readonly string[] },
): string | null {
  switch (code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const given = typeof request.headers['content-type'] === 'string' ? `"${String(request.headers['content-type']).slice(0, 100)}"` : 'none';
      return `headers/content-type: ${given} is not accepted; send one of ${limits.mediaTypes.join(', ')}`;
    }
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `body is larger than ${limits.bodyLimit} bytes (Server__BodyLimitBytes)`;
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'headers/content-length does not match the body sent';
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return `params: a path segment is longer than ${limits.maxParamLength} characters`;
    case 'FST_ERR_BAD_URL':
      return 'the path is not a valid URL (a malformed percent escape)';
    default:
      return null;
  }
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route
 * runs (a path segment too long: 414; a malformed URL: 400) is answered in
 * the usual shape, naming what was wrong.
 */
export function frameworkErrorAnswer(maxParamLength: number) {
  return (error: Error & { code?: string; statusCode?: number }, request: FastifyRequest, reply: FastifyReply) => {
    const status = error.statusCode ?? 400;
    const message = frameworkMessage(error.code, request, { maxParamLength, bodyLimit: 0, mediaTypes: [] }) ?? error.message;
    return reply.status(status).send(errorBody(status, error.code ?? 'NP_BAD_REQUEST', message));
  };
}
