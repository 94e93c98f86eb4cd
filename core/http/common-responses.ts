import type { FastifyInstance, RouteOptions } from 'fastify';
import { BEARER } from './openapi.ts';
import { ADMIN_PREFIX } from './route-guards.ts';
import { errorResponses } from '../plugin-api/response-schemas.ts';

/** Every route may answer these whatever its handler does: a bad string in a header (the input guards), an internal error. */
const EVERY_ROUTE = [400, 500];
/** A method Fastify reads a body for, whatever the route's schema: too large, or a content type it has no parser for. */
const WITH_BODY = [413, 415];
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A route with path parameters: Fastify refuses one longer than its router takes. */
const WITH_PARAMS = [414];
/** Under /api/admin/: authenticated before anything else (route-guards.ts). */
const ADMIN = [401, 403];

type Schema = NonNullable<RouteOptions['schema']> & { response?: Record<string, unknown>; security?: unknown };

/**
 * Declares, on every route as it is added, the answers Fastify and
 * core's guards give whatever the route's handler does, and the bearer
 * security of admin routes, so the OpenAPI document lists every status a
 * route answers without each route repeating them. What a route declares
 * itself is kept. Installed before any route is added.
 */
export function installCommonResponses(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema: Schema = { ...(route.schema as Schema | undefined) };
    if (schema.hide) return;
    const admin = route.url.startsWith(ADMIN_PREFIX);
    const methods = [route.method].flat();
    const takesBody = methods.some((method) => BODY_METHODS.has(method));
    const statuses = [...EVERY_ROUTE, ...(takesBody ? WITH_BODY : []), ...(/[:*]/.test(route.url) ? WITH_PARAMS : []), ...(admin ? ADMIN : [])];
    const declared = schema.response ?? {};
    const added = errorResponses(...statuses.filter((status) => !(status in declared)));
    schema.response = { ...declared, ...added };
    if (admin) schema.security ??= [BEARER];
    route.schema = schema;
  });
}
