import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Errors } from '../errors.ts';
import { resolveClientAddress, type TrustCheck } from './client-address.ts';
import { findUnsafeString } from './unsafe-strings.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The client's normalised IP address: X-Forwarded-For checked entry by entry (see client-address.ts). Use it, not `ip`, as an identity. */
    readonly clientAddress: string;
  }
}

/**
 * Every string a request carries (header values, path parameters, query,
 * parsed body), checked once for what PostgreSQL cannot store: a 400
 * naming the field instead of a database error, for every route, core's or
 * a plugin's. Runs before schema validation and after the routes' onRequest
 * hooks (admin authentication comes first).
 */
export function installInputGuards(app: FastifyInstance, trusted: TrustCheck): void {
  app.decorateRequest('clientAddress', {
    getter(this: FastifyRequest) {
      return resolveClientAddress(this.socket?.remoteAddress ?? this.raw.socket?.remoteAddress, this.headers['x-forwarded-for'], trusted);
    },
  });
  app.addHook('preValidation', async (request) => {
    const found =
      findUnsafeString(request.headers, 'headers') ??
      findUnsafeString(request.params, 'params') ??
      findUnsafeString(request.query, 'querystring') ??
      findUnsafeString(request.body, 'body');
    if (found) throw new Errors.InvalidField(`${found.path} ${found.problem}`);
  });
}

/**
 * HTTP/1.1 requires a Host header, exactly one (RFC 9112 §3.2: a request
 * with several is a 400; a proxy and the service could each read another).
 * Node's own check answers an empty 400; it is off (core/app.ts), and this
 * one answers in the usual shape, naming the header. An HTTP/1.0 request
 * may come without one.
 */
export function installHostCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor >= 1 && request.headers.host === undefined) {
      throw new Errors.InvalidField('headers/host is required in an HTTP/1.1 request');
    }
    const raw = request.raw.rawHeaders;
    let hosts = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'host') hosts += 1;
    if (hosts > 1) throw new Errors.InvalidField('headers/host must be given once');
  });
}
