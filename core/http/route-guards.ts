import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A GET that changes state (the verify link of an email): its HEAD
     * answers 200 without running the handler, so a link scanner's HEAD
     * activates nothing.
     */
    changesState?: boolean;
  }
  interface FastifyInstance {
    /** Every route registered so far (tests walk them; routes added later are included by construction). */
    readonly routeInventory: readonly RouteSummary[];
  }
}

export interface RouteSummary {
  readonly method: string;
  readonly url: string;
  readonly schema: RouteOptions['schema'];
  readonly config: RouteOptions['config'];
}

export const ADMIN_PREFIX = '/api/admin/';

type Hook = (request: FastifyRequest) => Promise<void>;
const hooksOf = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/**
 * Rules every route gets, core's or a plugin's, whoever wrote it:
 * - a route under /api/admin/ authenticates its caller as an admin in
 *   onRequest, before the body is even parsed (an anonymous bad body is a
 *   401, never a 400 that tells the schema to a stranger);
 * - the HEAD that Fastify adds to a GET declared `config.changesState` is
 *   answered without the handler;
 * - the route is listed in `app.routeInventory`.
 * Installed before any route is registered.
 */
export function installRouteGuards(app: FastifyInstance, adminOnly: Hook): void {
  const inventory: RouteSummary[] = [];
  app.decorate('routeInventory', inventory);
  app.addHook('onRoute', (route) => {
    const methods = hooksOf(route.method) as string[];
    if (route.url.startsWith(ADMIN_PREFIX)) route.onRequest = [adminOnly, ...hooksOf(route.onRequest).filter((hook) => hook !== adminOnly)] as never;
    if (methods.includes('HEAD') && route.config?.changesState) {
      route.handler = async (_request, reply) => reply.status(200).header('cache-control', 'no-store').send();
    }
    for (const method of methods) inventory.push({ method, url: route.url, schema: route.schema, config: route.config });
  });
}
