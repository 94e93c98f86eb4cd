import { createVerifier } from 'fast-jwt';
import type { FastifyRequest } from 'fastify';
import { Errors } from '../errors.ts';

import type { Caller } from '../plugin-api/core-ports.ts';

export type { Caller };

export const ANONYMOUS: Caller = Object.freeze({ kind: 'anonymous' });

/**
 * Reads `Authorization: Bearer <JWT>` (HS256, Jwt__Secret; `sub` is the user
 * id, `role: "admin"` an admin). No header: anonymous. A header that does
 * not verify is a 401, never a silent downgrade to anonymous. Without a
 * configured secret no token can verify.
 */
export function createCallerAuth(secret: string | undefined): (request: FastifyRequest) => Caller {
  const verify = secret ? createVerifier({ key: secret, algorithms: ['HS256'], cache: 1000 }) : undefined;
  return (request) => {
    const header = request.headers.authorization;
    if (header === undefined) return ANONYMOUS;
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new Errors.Unauthorized('Authorization must be "Bearer <token>"');
    if (!verify) throw new Errors.Unauthorized('bearer tokens are not accepted: no Jwt__Secret is configured');
    let claims: Record<string, unknown>;
    try {
      claims = verify(match[1]) as Record<string, unknown>;
    } catch {
      throw new Errors.Unauthorized('the bearer token is invalid or expired');
    }
    return { kind: 'user', userId: checkedSubject(claims.sub), admin: claims.role === 'admin' };
  };
}

const MAX_SUBJECT_LENGTH = 200;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The user id a token's `sub` names, or a 401: it is stored and compared
 * as it is, so it must be text PostgreSQL keeps unchanged (no NUL, no lone
 * surrogate, which would come back as U+FFFD and lock the creator out of
 * their own subscription), one line, and of a sane length.
 */
function checkedSubject(sub: unknown): string {
  if (typeof sub !== 'string' || sub === '') throw new Errors.Unauthorized('the bearer token has no sub claim');
  if (sub.length > MAX_SUBJECT_LENGTH) throw new Errors.Unauthorized(`the bearer token's sub claim is longer than ${MAX_SUBJECT_LENGTH} characters`);
  if (!sub.isWellFormed() || CONTROL.test(sub)) throw new Errors.Unauthorized("the bearer token's sub claim holds control characters or malformed Unicode");
  return sub;
}

export function requireAdmin(caller: Caller): void {
  if (caller.kind === 'anonymous') throw new Errors.Unauthorized('an admin bearer token is required');
  if (!caller.admin) throw new Errors.Forbidden('this needs the admin role');
}

/**
 * An onRequest hook for admin routes: the caller must be an admin before
 * anything else of the request is looked at (401 anonymous, 403 non-admin).
 * Every route under /api/admin/ gets it (core/http/route-guards.ts).
 */
export function createAdminOnly(authenticate: (request: FastifyRequest) => Caller): (request: FastifyRequest) => Promise<void> {
  return async (request) => requireAdmin(authenticate(request));
}

/** The manage token a request carries in its X-Subscription-Token header, if any. */
export const manageTokenOf = (request: FastifyRequest) => {
  const header = request.headers['x-subscription-token'];
  return typeof header === 'string' ? header : undefined;
};
