import type { FastifyError, FastifyInstance } from 'fastify';
import { STATUS_CODES } from 'node:http';

/**
 * One mapping of errors to responses, in Fastify's shape
 * `{ statusCode, code, error, message }`. A 4xx keeps its message (it names
 * the field); a 5xx is logged with its cause and answered without details.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.validation ? 400 : (error.statusCode ?? 500);
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ statusCode: 500, code: 'NP_INTERNAL', error: STATUS_CODES[500], message: 'Internal Server Error' });
    }
    const headers = (error as FastifyError & { headers?: Record<string, string> }).headers;
    if (headers) reply.headers(headers);
    return reply.status(status).send({
      statusCode: status,
      code: error.code ?? 'NP_BAD_REQUEST',
      error: STATUS_CODES[status] ?? 'Error',
      message: error.message,
    });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ statusCode: 404, code: 'NP_NOT_FOUND', error: 'Not Found', message: `Route ${request.method}:${request.url.split('?')[0]} not found` }),
  );
}
