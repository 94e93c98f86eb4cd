import type { FastifyInstance } from 'fastify';
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
import { createGeocoder } from '../places/index.ts';
import { localeRoutes } from '../routes/locales.ts';
import { providerCatalog } from '../plugins/provider-catalog.ts';
import { publicViewRoutes } from '../public-views/public-view-routes.ts';
import { subscriptionRoutes } from '../subscriptions/subscription-routes.ts';
import type { DeclaredProperties } from '../subscriptions/subscription-schemas.ts';
import { webRoutes } from '../web/web-routes.ts';
import { stillOutRoutes } from '../still-out/index.ts';
import { confirmRoutes } from '../confirmation/confirm-routes.ts';
import type { CoreServices, Delivery, External, Pipeline, Platform } from './services.ts';

const SERVICE_NAME = 'notification-pipeline';

export interface RoutesInputs {
  readonly platform: Platform;
  readonly external: External;
  readonly coreServices: CoreServices;
  readonly delivery: Delivery;
  readonly pipeline: Pipeline;
  readonly trustedProxy: TrustCheck;
}

/** Routes, last: core's (health, catalog, subscriptions) and every plugin's, each in its own scope. */
export async function wireRoutes(app: FastifyInstance, inputs: RoutesInputs): Promise<void> {
  const { platform, external, coreServices, delivery, pipeline } = inputs;
  const { database, readiness } = external;
  installErrorHandler(app, { bodyLimit: platform.config.Server.BodyLimitBytes, maxParamLength: MAX_PARAM_LENGTH });
  installJsonBodyParser(app);
  installHostCheck(app);
  // Before any route: admin routes authenticate before validating, HEAD never changes state, no request string holds NUL.
  installRouteGuards(app, coreServices.auth.adminOnly);
  installInputGuards(app, inputs.trustedProxy);
  await app.register(healthRoutes, {
    serviceName: SERVICE_NAME,
    now: platform.now,
    probe: {
      migrationsApplied: () => readiness.migrated,
      pluginsLoaded: () => readiness.pluginsLoaded,
      databaseAnswers: () => databaseAnswers(() => database.knex.raw('SELECT 1'), 2000),
    },
  });
  // A feed is watched when its monitor runs (the pipeline on, the feed's own Enabled); core's own feeds always are.
  const unwatched = new Set(
    platform.registry.feeds
      .filter((manifest) => !(platform.config.NotificationPipeline.Enabled && platform.monitors.get(manifest.id)?.Enabled))
      .map((manifest) => manifest.feed.id),
  );
  await app.register(feedRoutes, { catalog: platform.registry, feeds: platform.feeds, watched: (feedId) => !unwatched.has(feedId) });
  await app.register(providerRoutes, {
    list: (language) => providerCatalog(platform.registry.deliveries, delivery.targets, language, (pluginId) => platform.registry.messagesOf(pluginId)),
  });
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
  if (geocoder) external.shutdown.add('geocoder', () => geocoder.close());
  await app.register(mapSettingsRoutes, {
    tileUrl: mapSettings.TileUrl ?? null,
    attribution: mapSettings.Attribution ?? null,
    center: parseCenter(mapSettings.Center),
    zoom: mapSettings.Zoom,
    geocoder,
  });
  await app.register(subscriptionRoutes, {
    service: pipeline.subscriptions,
    providers: [...delivery.targets.keys()],
    deliveryProperties: declared(platform.registry.deliveries.map((m) => m.deliveryProperties)),
    propertiesOf: new Map(platform.registry.deliveries.map((m) => [m.provider, new Set(Object.keys(m.deliveryProperties ?? {}))])),
    createdProperties: declared(platform.registry.deliveries.map((m) => m.createdProperties)),
    authenticate: coreServices.auth.authenticate,
  });
  await app.register(stillOutRoutes, { db: external.db, key: delivery.stillOut.key, types: delivery.stillOut.types });
  await app.register(confirmRoutes, { confirmations: delivery.confirmations });
  await app.register(webRoutes, {
    service: pipeline.subscriptions,
    authenticate: coreServices.auth.authenticate,
    tileUrl: mapSettings.TileUrl ?? null,
  });
  await app.register(publicViewRoutes, {
    context: {
      registry: platform.registry,
      db: external.db,
      publicBaseUrl: platform.config.PublicBaseUrl,
      now: platform.now,
      // The same sections the feed's renderers get.
      feedConfig: platform.feedConfig,
    },
    subscriptions: pipeline.subscriptions,
    authenticate: coreServices.auth.authenticate,
  });
  for (const parts of [...delivery.parts.values(), ...pipeline.feedParts.values()]) {
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
