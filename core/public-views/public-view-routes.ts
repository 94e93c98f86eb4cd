import type { FastifyInstance } from 'fastify';
import { alertRoutes } from './alert-routes.ts';
import { calendarRoutes, type CalendarRouteOptions } from './calendar-routes.ts';
import { mapRoutes } from './map-routes.ts';
import { publicViewContext } from './public-view-context.ts';

/** What the public views read: the platform's registry and clock, the database, the site's address, each feed's sections. */
export interface PublicViewInputs extends Omit<CalendarRouteOptions, 'context'> {
  readonly context: Parameters<typeof publicViewContext>[0];
}

/**
 * The read-only public views of what the service stores: calendars of
 * planned items, Atom feeds of alerts and CAP 1.2 alerts, the current
 * outages' shapes (GeoJSON). Registered with the routes, from the inputs
 * they read (never the whole wiring).
 */
export async function publicViewRoutes(app: FastifyInstance, inputs: PublicViewInputs) {
  const context = publicViewContext(inputs.context);
  await app.register(calendarRoutes, { context, subscriptions: inputs.subscriptions, authenticate: inputs.authenticate });
  await app.register(alertRoutes, { context });
  await app.register(mapRoutes, { context });
}
