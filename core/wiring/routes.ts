import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { TrustCheck } from '../http/client-address.ts';
import { installErrorHandler } from '../http/error-handler.ts';
import { installHostCheck, installInputGuards } from '../http/request-guards.ts';
import { installJsonBodyParser } from '../http/json-body.ts';
import { MAX_PARAM_LENGTH } from '../http/framework-errors.ts';
import { installRouteGuards } from '../http/route-guards.ts';
import { feedRoutes } from '../routes/feeds.ts';
import { healthRoutes } from '../routes/health.ts';
import { providerRoutes } from '../routes/providers.ts';
import { mapSettingsRoutes, parseCenter } from '../routes/map.ts';
import { createGeocoder } from '../places/geocoder.ts';
import { localeRoutes } from '../routes/locales.ts';
import { providerCatalog } from '../plugins/provider-catalog.ts';
import { publicViewRoutes } from '../public-views/public-view-routes.ts';
import { subscriptionRoutes } from '../subscriptions/subscription-routes.ts';
import type { DeclaredProperties } from '../subscriptions/subscription-schemas.ts';
import { webRoutes } from '../web/web-routes.ts';
import type { Wiring } from './services.ts';

const SERVICE_NAME = 'notification-pipeline';

/** Routes, last: core's (health, catalog, subscriptions) and every plugin's, each in its own scope. */
async function routes(app: FastifyInstance, options: { trustedProxy: TrustCheck; wiring: Wiring }) {
  const { wiring } = options;
  const { platform } = wiring;
  const { database, readiness } = wiring.external;
  installErrorHandler(app, { bodyLimit: platform.config.Server.BodyLimitBytes, maxParamLength: MAX_PARAM_LENGTH });
  installJsonBodyParser(app);
  installHostCheck(app);
  // Before any route: admin routes authenticate before validating, HEAD never changes state, no request string holds NUL.
  installRouteGuards(app, wiring.coreServices.auth.adminOnly);
  installInputGuards(app, options.trustedProxy);
  await app.register(healthRoutes, {
    serviceName: SERVICE_NAME,
    now: platform.now,
    probe: {
      migrationsApplied: () => readiness.migrated,
      pluginsLoaded: () => readiness.pluginsLoaded,
      databaseAnswers: () => databaseAnswers(() => database.knex.raw('SELECT 1'), 2000),
    },
  });
  await app.register(feedRoutes, { catalog: platform.registry, feeds: platform.feeds });
  await app.register(providerRoutes, { list: () => providerCatalog(platform.registry.deliveries, wiring.delivery.targets) });
  await app.register(localeRoutes);
  const mapSettings = platform.config.Map;
  const geocoderSettings = platform.config.Geocoder;
  const geocoder = geocoderSettings.BaseUrl
    ? createGeocoder({
        baseUrl: geocoderSettings.BaseUrl,
        timeoutSeconds: geocoderSettings.TimeoutSeconds,
        requestsPerSecond: geocoderSettings.RequestsPerSecond,
        userAgent: `${SERVICE_NAME} (${platform.config.PublicBaseUrl})`,
      })
    : null;
  if (geocoder) wiring.external.shutdown.add('geocoder', () => geocoder.close());
  await app.register(mapSettingsRoutes, {
    tileUrl: mapSettings.TileUrl ?? null,
    attribution: mapSettings.Attribution ?? null,
    center: parseCenter(mapSettings.Center),
    zoom: mapSettings.Zoom,
    geocoder,
  });
  await app.register(subscriptionRoutes, {
    service: wiring.pipeline.subscriptions,
    providers: [...wiring.delivery.targets.keys()],
    deliveryProperties: declared(platform.registry.deliveries.map((m) => m.deliveryProperties)),
    createdProperties: declared(platform.registry.deliveries.map((m) => m.createdProperties)),
    authenticate: wiring.coreServices.auth.authenticate,
  });
  await app.register(webRoutes, {
    service: wiring.pipeline.subscriptions,
    authenticate: wiring.coreServices.auth.authenticate,
    tileUrl: mapSettings.TileUrl ?? null,
  });
  await app.register(publicViewRoutes, {
    context: {
      registry: platform.registry,
      db: wiring.external.db,
      publicBaseUrl: platform.config.PublicBaseUrl,
      now: platform.now,
      // The same sections the feed's renderers get.
      feedConfig: platform.feedConfig,
    },
    subscriptions: wiring.pipeline.subscriptions,
    authenticate: wiring.coreServices.auth.authenticate,
  });
  for (const parts of [...wiring.delivery.parts.values(), ...wiring.pipeline.feedParts.values()]) {
    const { routes } = parts;
    if (routes) await app.register(async (scope) => routes(scope));
  }
}

/** Whether the database answers within the budget (readiness must not hang on a dead connection). */
async function databaseAnswers(query: () => PromiseLike<unknown>, budgetMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), budgetMs);
  });
  const answered = await Promise.race([
    Promise.resolve(query()).then(
      () => true,
      () => false,
    ),
    timeout,
  ]);
  clearTimeout(timer);
  return answered;
}

/** The targets' declared properties merged, the first declaration of a name winning. */
function declared(all: ReadonlyArray<DeclaredProperties | undefined>): DeclaredProperties {
  return Object.assign({}, ...[...all].reverse().filter(Boolean));
}

export const routesWiring = fp(routes, { name: 'np-routes', dependencies: ['np-pipeline'] });
