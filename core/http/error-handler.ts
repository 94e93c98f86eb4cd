import type { FastifyError, FastifyInstance } from 'fastify';
import { errorBody } from './error-body.ts';
import { frameworkMessage } from './framework-errors.ts';
import { singleLine } from '../plugin-api/user-text.ts';

/**
 * One mapping of errors to responses, in Fastify's shape
 * `{ statusCode, code, error, message }`. A 4xx keeps its message (it names
 * the field); a 5xx is logged with its cause and answered without details.
 */
export function installErrorHandler(app: FastifyInstance, limits: { bodyLimit: number; maxParamLength: number }): void {
  const mediaTypes = ['application/json', 'application/x-www-form-urlencoded (where a form posts)'];
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.validation ? 400 : (error.statusCode ?? 500);
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send(errorBody(500, 'NP_INTERNAL', 'Internal Server Error'));
    }
    const headers = (error as FastifyError & { headers?: Record<string, string> }).headers;
    if (headers) reply.headers(headers);
    const message = frameworkMessage(error.code, request, { ...limits, mediaTypes }) ?? error.message;
    // The request's log line says why it was refused (which field, which limit); bodies and tokens never reach it.
    request.refusal = singleLine(message).slice(0, 300);
    return reply.status(status).send(errorBody(status, error.code ?? 'NP_BAD_REQUEST', message));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(errorBody(404, 'NP_NOT_FOUND', `Route ${request.method}:${request.url.split('?')[0]} not found`)),
  );
}
