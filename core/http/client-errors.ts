import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './error-body.ts';

/**
 * What Node's HTTP parser refuses before any route runs (a request that did
 * not arrive in time, headers too large, bytes that are not HTTP) is
 * answered in the same error shape as every other answer, `{ statusCode,
 * code, error, message }`, instead of Fastify's default body without a
 * `code`. Pure: the answer for an error code.
 */
function clientErrorAnswer(errorCode: string | undefined): { statusCode: number; body: string } {
  const [statusCode, code, message] =
    errorCode === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'NP_REQUEST_TIMEOUT', 'the request did not arrive in full within Server__RequestTimeoutSeconds']
      : errorCode === 'HPE_HEADER_OVERFLOW'
        ? [431, 'NP_HEADERS_TOO_LARGE', 'the request headers are larger than the server accepts']
        : [400, 'NP_BAD_REQUEST', 'the request is not valid HTTP'];
  return { statusCode, body: JSON.stringify(errorBody(statusCode, code, message)) };
}

/** Fastify's `clientErrorHandler`: as Fastify's own, with the answer above. */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection is gone already: nothing to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { statusCode, body } = clientErrorAnswer(err.code);
  this.log.debug({ errorCode: err.code, statusCode }, 'client error before routing');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
