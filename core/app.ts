import { randomUUID } from 'node:crypto';
import fastifySchedule from '@fastify/schedule';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { CoreConfig } from './config/core-config-schema.ts';
import type { EnvSnapshot } from './config/env-source.ts';
import { createDatabase, type Database } from './db/database.ts';
import { runMigrations } from './db/migrate.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { feedRoutes } from './http/routes/feeds.ts';
import { healthRoutes } from './http/routes/health.ts';
import { createLogger } from './logging/logger.ts';
import type { DeliveryTarget } from './plugin-api/delivery-types.ts';
import type { PluginContext, PluginManifest } from './plugin-api/manifest.ts';
import type { PluginRegistry } from './plugins/registry.ts';
import { configurePlatform } from './boot.ts';
import { ConfigError } from './config/load-config.ts';
import { DeliveryDispatcher } from './pipeline/delivery-dispatcher.ts';
import { createEndpointChecker } from './pipeline/endpoint-checker.ts';
import { NotificationPipelineService } from './pipeline/notification-pipeline.ts';
import { DEFAULT_RETRY } from './pipeline/retry-policy.ts';
import { createCallerAuth, requireAdmin } from './http/caller-auth.ts';
import { createLedgerAccess, createSubscriptionAccess } from './subscriptions/plugin-access.ts';
import { subscriptionRoutes } from './subscriptions/subscription-routes.ts';
import { SubscriptionService } from './subscriptions/subscription-service.ts';
import { syncSystemSubscriptions } from './subscriptions/system-subscriptions.ts';
import { WorkerLeases } from './scheduler/worker-leases.ts';
import { WorkerScheduler } from './scheduler/worker-scheduler.ts';

export interface BuildAppOptions {
  env: EnvSnapshot;
  pluginsDir?: string;
  /** Where log lines go (tests capture them); default stdout. */
  logStream?: DestinationStream;
  now?: () => Date;
  /** Skip workers entirely (the migrate and template commands). */
  workers?: boolean;
}

export interface AppServices {
  readonly config: Readonly<CoreConfig>;
  readonly fullConfig: Readonly<Record<string, unknown>>;
  readonly registry: PluginRegistry;
  readonly database: Database;
  readonly workers: WorkerScheduler;
  readonly targets: ReadonlyMap<string, DeliveryTarget>;
  readonly pipeline: NotificationPipelineService;
  readonly dispatcher: DeliveryDispatcher;
  readonly instanceId: string;
  readonly now: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}

/** A plugin's own sections out of the full tree: `{ 'Notifications:Push': {...} }`. */
function sectionsOf(manifest: PluginManifest, fullConfig: Readonly<Record<string, unknown>>) {
  const picked: Record<string, unknown> = {};
  for (const path of Object.keys(manifest.config)) {
    picked[path] = path.split(':').reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], fullConfig);
  }
  return Object.freeze(picked);
}

/**
 * Builds the service: discovers plugins, validates configuration (throws
 * ConfigError naming the keys), opens the database and applies migrations,
 * then wires routes, delivery targets and workers. Listening is the caller's.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { registry, loaded, config } = await configurePlatform(options.env, options.pluginsDir);
  const configProblems = registry.plugins.flatMap(({ manifest }) => manifest.checkConfig?.(sectionsOf(manifest, loaded.config) as never) ?? []);
  if (configProblems.length > 0) throw new ConfigError([...configProblems]);
  const database = createDatabase({
    connectionString: config.ConnectionStrings.DefaultConnection,
    embeddedPath: config.Database.EmbeddedPath,
    poolMax: config.Database.PoolMax,
  });
  const loggerInstance: FastifyBaseLogger = createLogger({
    level: config.Logging.Level,
    secrets: [...loaded.secrets, ...database.secrets],
    stream: options.logStream,
  });
  const app = Fastify({
    loggerInstance,
    bodyLimit: config.Server.BodyLimitBytes,
    trustProxy: [...config.Server.TrustedProxies],
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    genReqId: () => randomUUID(),
  });
  const now = options.now ?? (() => new Date());
  const instanceId = randomUUID();
  let migrated = false;
  let pluginsLoaded = false;
  const workers = new WorkerScheduler(
    (await app.register(fastifySchedule).after(), app.scheduler),
    new WorkerLeases(database.knex, instanceId),
    app.log,
  );
  const targets = new Map<string, DeliveryTarget>();
  const pipelineConfig = config.NotificationPipeline;
  const dispatcher = new DeliveryDispatcher({
    db: database.knex,
    targets,
    log: app.log.child({ component: 'dispatcher' }),
    batchSize: pipelineConfig.DispatchBatchSize,
    retry: { ...DEFAULT_RETRY, maxAttempts: pipelineConfig.MaxDeliveryAttempts },
    leaseSeconds: pipelineConfig.DeliveryLeaseSeconds,
    now,
  });
  const feedConfigs = new Map<string, unknown>();
  const pipeline = new NotificationPipelineService({
    db: database.knex,
    registry,
    targets,
    dispatcher,
    log: app.log.child({ component: 'pipeline' }),
    enabled: pipelineConfig.Enabled,
    cooldownSeconds: pipelineConfig.CooldownSeconds,
    feedConfig: (feedId) => feedConfigs.get(feedId),
  });
  app.decorate('services', { config, fullConfig: loaded.config, registry, database, workers, targets, pipeline, dispatcher, instanceId, now });

  app.addHook('onClose', async () => {
    await workers.stop();
    await dispatcher.stop();
    for (const target of targets.values()) await target.close?.().catch((err: unknown) => app.log.warn({ err }, 'closing a delivery target failed'));
    await database.knex.destroy();
  });

  for (const key of loaded.unknownKeys) app.log.warn({ key }, 'unknown configuration key ignored (a typo?)');
  app.log.info({ database: database.description, plugins: registry.plugins.map((p) => p.folder) }, 'starting');

  try {
    const report = await runMigrations(database, registry.migrationDirs);
    if (report.applied.length > 0) app.log.info({ applied: report.applied }, 'migrations applied');
    migrated = true;
  } catch (cause) {
    await database.knex.destroy().catch(() => undefined);
    throw new Error(`Migrations failed: ${(cause as Error).message}`, { cause });
  }

  installErrorHandler(app);
  await app.register(healthRoutes, {
    serviceName: 'notification-pipeline',
    now,
    probe: {
      migrationsApplied: () => migrated,
      pluginsLoaded: () => pluginsLoaded,
      databaseAnswers: () => databaseAnswers(database, 2000),
    },
  });
  await app.register(feedRoutes, { catalog: registry });
  const authenticate = createCallerAuth(config.Jwt.Secret);
  const subscriptionAccess = createSubscriptionAccess(database.knex);
  const ledgerAccess = createLedgerAccess(database.knex);
  const endpoints = createEndpointChecker(database.knex);
  app.addHook('onClose', () => endpoints.close());
  const subscriptions = new SubscriptionService({
    db: database.knex,
    registry,
    targets,
    pipeline,
    limits: config.SubscriptionLimits,
    cooldownSeconds: pipelineConfig.CooldownSeconds,
    now,
  });
  await app.register(subscriptionRoutes, {
    service: subscriptions,
    providers: registry.deliveries.filter((manifest) => manifest.createTarget).map((manifest) => manifest.provider),
    authenticate,
  });

  const contexts = new Map<string, PluginContext>();
  for (const { manifest } of registry.plugins) {
    const context: PluginContext = {
      pluginId: manifest.id,
      config: sectionsOf(manifest, loaded.config) as PluginContext['config'],
      coreConfig: config,
      db: database.knex,
      log: app.log.child({ plugin: manifest.id }),
      topicAllowlist: registry.topicAllowlist,
      pipeline,
      subscriptions: subscriptionAccess,
      ledger: ledgerAccess,
      auth: { authenticate, requireAdmin },
      endpoints,
      now,
    };
    contexts.set(manifest.id, context);
    if (manifest.kind === 'feed') feedConfigs.set(manifest.feed.id, context.config);
    if (manifest.routes) await app.register(async (scope) => manifest.routes!(scope, context));
  }

  app.addHook('onReady', async () => {
    for (const manifest of registry.deliveries) {
      if (manifest.createTarget) targets.set(manifest.provider, await manifest.createTarget(contexts.get(manifest.id)!));
    }
    await syncSystemSubscriptions(database.knex, pipelineConfig.SystemSubscriptions, registry, targets);
    if (options.workers !== false) {
      if (pipelineConfig.Enabled) {
        workers.register({
          name: 'core.delivery-dispatcher',
          intervalSeconds: pipelineConfig.DispatchIntervalSeconds,
          exclusive: false,
          run: async ({ signal }) => void (await dispatcher.drain(signal)),
        });
      }
      for (const { manifest } of registry.plugins) {
        const context = contexts.get(manifest.id)!;
        const runs = manifest.kind === 'delivery' || (config.NotificationPipeline.Enabled && manifest.enabled(context.config));
        if (!runs) continue;
        for (const worker of manifest.workers?.(context) ?? []) workers.register(worker);
      }
    }
    pluginsLoaded = true;
  });
  return app;
}

async function databaseAnswers(database: Database, budgetMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), budgetMs);
  });
  const query = database.knex.raw('SELECT 1').then(() => true, () => false);
  const answered = await Promise.race([query, timeout]);
  clearTimeout(timer);
  return answered;
}
