import type { FastifyInstance } from 'fastify';
import { alertRoutes } from './alert-routes.ts';
import { calendarRoutes } from './calendar-routes.ts';
import { publicViewContext } from './public-view-context.ts';
import type { Wiring } from '../wiring/services.ts';

/**
 * The read-only public views of what the service stores: calendars of
 * planned items, Atom feeds of alerts and CAP 1.2 alerts. Registered with
 * the routes, once the platform, the database and the subscriptions exist.
 */
export async function publicViewRoutes(app: FastifyInstance, { wiring }: { wiring: Wiring }) {
  const { registry, config, now } = wiring.platform;
  const context = publicViewContext({
    registry,
    db: wiring.external.db,
    publicBaseUrl: config.PublicBaseUrl,
    now,
    // The same sections the feed's renderers get.
    feedConfig: wiring.platform.feedConfig,
  });
  await app.register(calendarRoutes, { context, subscriptions: wiring.pipeline.subscriptions, authenticate: wiring.coreServices.auth.authenticate });
  await app.register(alertRoutes, { context });
}
