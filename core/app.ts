import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { configurePlatform } from './boot.ts';
import { feedSource, monitorSection } from './feeds/feed-source.ts';
import { usesLegacySource } from './plugins/deprecations.ts';
import type { PluginRoot } from './paths.ts';
import type { EnvSnapshot } from './config/env-source.ts';
import { ConfigError } from './config/load-config.ts';
import { describeSectionTypo } from './config/section-typos.ts';
import { pickSections } from './config/compose-schema.ts';
import { publicCoreSettings } from './plugin-api/plugin-core-settings.ts';
import { createDatabase } from './db/database.ts';
import { deprecationsOf } from './plugins/deprecations.ts';
import { createFeedCatalog } from './plugins/feed-catalog.ts';
import { compileTrust } from './http/client-address.ts';
import { clientErrorHandler } from './http/client-errors.ts';
import { frameworkErrorAnswer, MAX_PARAM_LENGTH } from './http/framework-errors.ts';
import { serverTimeouts } from './http/server-timeouts.ts';
import { formatValidationErrors } from './http/validation-messages.ts';
import { createLogger, wantsReadableLogs } from './logging/logger.ts';
import { RequestLogController } from './logging/request-log.ts';
import { wireConsole } from './wiring/console.ts';
import { wireCoreServices } from './wiring/core-services.ts';
import { wireDelivery } from './wiring/delivery.ts';
import { wireExternal } from './wiring/external.ts';
import { Later } from './wiring/later.ts';
import { wireObservability } from './wiring/observability.ts';
import { wireOperations } from './wiring/operations.ts';
import { wirePipeline } from './wiring/pipeline.ts';
import { wireRoutes } from './wiring/routes.ts';
import type { AppServices, Platform } from './wiring/services.ts';
import { Shutdown } from './wiring/shutdown.ts';
import { wireWorkers } from './wiring/workers.ts';
import type { FeedPluginContext } from './plugin-api/manifest.ts';
import { LeaseOwner, instanceName } from './queue/lease-owner.ts';
import { DatabaseClock } from './db/database-clock.ts';
import { lapseEarlierRuns } from './ledger/index.ts';
import { lapseEarlierFanouts } from './pipeline/fanout/fanout-store.ts';

export type { AppServices };

export interface BuildAppOptions {
  env: EnvSnapshot;
  /** Where the plugins are: a folder of plugin folders (tests give a scratch one), or the roots PLUGINS_DIR makes (pluginRootsOf). */
  pluginsDir?: string | readonly PluginRoot[];
  /** Where log lines go (tests capture them); default stdout. */
  logStream?: DestinationStream;
  now?: () => Date;
  /** Skip scheduled workers (the migrate and template commands, some tests). */
  workers?: boolean;
}

/**
 * Builds the service: discovers the plugins and validates the whole
 * configuration (throws ConfigError naming the keys) before anything
 * starts, then wires it step by step, each step a function of what the
 * steps before it made: external (database and migrations,
 * scheduler, wake-ups) → observability (metrics, request log, OpenAPI) →
 * core services → delivery plugins and the dispatcher → the pipeline and
 * the feed plugins → routes → operations (feed health, /metrics, /docs,
 * admin views) → workers (on ready). Listening is the caller's.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { registry, loaded, config } = await configurePlatform(options.env, options.pluginsDir);
  const sections = new Map(registry.plugins.map(({ manifest }) => [manifest.id, pickSections(manifest.config, loaded.config)]));
  const feedSections = new Map(registry.feeds.map((manifest) => [manifest.feed.id, sections.get(manifest.id)!]));
  const configProblems = registry.plugins.flatMap(({ manifest }) => manifest.checkConfig?.(sections.get(manifest.id) as never) ?? []);
  const trustedProxy = compiledOrProblem(() => compileTrust(config.Server.TrustedProxies), configProblems);
  if (configProblems.length > 0) throw new ConfigError([...configProblems]);
  const monitors = new Map(registry.feeds.map((manifest) => [manifest.id, manifest.monitor.settings(sections.get(manifest.id) as never)]));
  const sources = new Map(
    registry.feeds.map((manifest) => {
      const settings = monitors.get(manifest.id)!;
      return [
        manifest.id,
        feedSource(
          monitorSection(sections.get(manifest.id)!, settings),
          settings,
          manifest.monitor.sharedSource || usesLegacySource(manifest) ? config.ExternalProvider : null,
        ),
      ];
    }),
  );
  const database = createDatabase({
    connectionString: config.ConnectionStrings.DefaultConnection,
    embeddedPath: config.Database.EmbeddedPath,
    poolMax: config.Database.PoolMax,
  });
  const loggerInstance: FastifyBaseLogger = createLogger({
    level: config.Logging.Level,
    secrets: [...loaded.secrets, ...database.secrets],
    stream: options.logStream,
    readable: !options.logStream && wantsReadableLogs(config.NODE_ENV, process.stdout.isTTY === true),
  });
  const timeouts = serverTimeouts(config.Server.RequestTimeoutSeconds);
  const app = Fastify({
    loggerInstance,
    bodyLimit: config.Server.BodyLimitBytes,
    // The one trust check: request.ip (the request log) and clientAddress (the limits) agree on the proxies.
    trustProxy: trustedProxy!,
    ...timeouts,
    // A request refused by Node's parser (too slow, headers too large) gets the usual error shape too.
    clientErrorHandler,
    // So do the router's refusals (a path segment too long, a malformed URL)…
    frameworkErrors: frameworkErrorAnswer(MAX_PARAM_LENGTH),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // …and a request without Host, which Node would answer with an empty 400 (core/http/request-guards.ts answers it).
    // Merged with the timeouts' own http settings: replacing them left Node's 30 s check of slow requests.
    http: { ...timeouts.http, requireHostHeader: false },
    // verbose: errors carry their schema, so a message can list what is allowed.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false, verbose: true } },
    schemaErrorFormatter: formatValidationErrors,
    genReqId: () => randomUUID(),
    // One line per request, written when it is answered.
    logController: new RequestLogController(),
    // Migrations run inside the first wiring plugin: a large one may take minutes, and must not be cut off.
    pluginTimeout: 0,
  });
  // The service's clock: a test's own, else the database's (measured once the database answers), else this host's.
  const databaseClock = !options.now && config.Server.ClockFollowsDatabase ? new DatabaseClock() : undefined;
  const platform: Platform = {
    registry,
    config,
    coreSettings: publicCoreSettings(config),
    fullConfig: loaded.config,
    now: options.now ?? databaseClock?.now ?? (() => new Date()),
    instanceId: randomUUID(),
    leaseOwner: new LeaseOwner(instanceName(config.Server.InstanceName, config.Server.Port)),
    runWorkers: options.workers !== false,
    sectionsOf: (pluginId) => sections.get(pluginId) ?? {},
    feedConfig: (feedId) => feedSections.get(feedId) ?? {},
    monitors,
    sources,
    feeds: createFeedCatalog(
      registry.feeds,
      (pluginId) => sections.get(pluginId) ?? {},
      (pluginId) => registry.messagesOf(pluginId),
    ),
  };
  for (const key of loaded.unknownKeys) app.log.warn({ key }, 'unknown configuration key ignored (a typo?)');
  for (const typo of loaded.sectionTypos) app.log.warn(typo, describeSectionTypo(typo));
  app.log.info({ database: database.description, plugins: registry.plugins.map((p) => p.folder) }, 'starting');
  for (const { manifest } of registry.plugins) {
    for (const note of deprecationsOf(manifest)) app.log.warn({ plugin: manifest.id }, `plugin ${manifest.id}: ${note}`);
  }

  // One list of what to stop, the database last: app.close() runs it, and so does a failed start.
  const shutdown = new Shutdown(app.log);
  shutdown.add('database', () => database.knex.destroy());
  if (databaseClock) shutdown.add('clock', () => databaseClock.stop());
  app.addHook('onClose', () => shutdown.run());
  // Each step a function of what the steps before it made: a step put before what it needs does not compile.
  try {
    const external = await wireExternal(app, { platform, database, shutdown });
    if (databaseClock) {
      await databaseClock.follow(database.knex, (err) => app.log.warn({ err }, "could not read the database's clock; the last measured distance holds"));
      if (Math.abs(databaseClock.offsetMs) > 1000)
        app.log.warn({ offsetMs: databaseClock.offsetMs }, "this host's clock is off from the database's; the service follows the database's");
    }
    const observability = await wireObservability(app, { platform, external });
    const coreServices = wireCoreServices(app, { platform, external, observability });
    const feedContexts = new Later<ReadonlyMap<string, FeedPluginContext>>("the feed plugins' contexts");
    const delivery = await wireDelivery(app, { platform, external, observability, coreServices, feedContexts });
    const pipeline = await wirePipeline(app, { platform, external, observability, coreServices, delivery });
    feedContexts.give(pipeline.feedContexts);
    await wireRoutes(app, { platform, external, coreServices, delivery, pipeline, trustedProxy: trustedProxy! });
    const operations = await wireOperations(app, { platform, external, observability, delivery, pipeline });
    await wireConsole(app, { platform, external, coreServices, delivery, pipeline, operations });
    wireWorkers(app, { platform, external, coreServices, delivery, pipeline, operations });
    servicesByApp.set(app, {
      config,
      fullConfig: loaded.config,
      registry,
      database,
      workers: external.workers,
      targets: delivery.targets,
      pipeline: pipeline.pipeline,
      dispatcher: {
        settle: async () => {
          await delivery.fanouts.settle();
          await delivery.lanes.settle();
        },
        drain: () => delivery.lanes.drain(),
        wake: () => delivery.lanes.wake(),
      },
      lanes: delivery.lanes,
      queues: coreServices.queues,
      instanceId: platform.instanceId,
      takeBackEarlierRuns: async () => {
        const given = {
          deliveries: await lapseEarlierRuns(database.knex, platform.leaseOwner),
          fanouts: await lapseEarlierFanouts(database.knex, platform.leaseOwner),
        };
        coreServices.queues.wakeAll();
        return given;
      },
      now: platform.now,
      feeds: platform.feeds,
      recordPoll: operations.recordPoll,
    });
  } catch (error) {
    // Whatever step failed, what was opened goes back: the pool's connections, the embedded data folder's lock.
    await shutdown.run();
    throw error;
  }
  return app;
}

/** Core's services by the app they were built for: kept here, never decorated onto the instance every plugin scope inherits. */
const servicesByApp = new WeakMap<FastifyInstance, AppServices>();

/** The read-only view of an app's services, for tests, benchmarks and the CLI (never handed to a plugin). */
export function servicesOf(app: FastifyInstance): AppServices {
  const services = servicesByApp.get(app);
  if (!services) throw new Error('servicesOf: not an app made by buildApp');
  return services;
}

/** A value built from configuration, or its problem added to the list. */
function compiledOrProblem<T>(build: () => T, problems: string[]): T | undefined {
  try {
    return build();
  } catch (error) {
    problems.push((error as Error).message);
    return undefined;
  }
}
