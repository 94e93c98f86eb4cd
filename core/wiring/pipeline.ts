import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { FeedPluginContext, SectionsConfig } from '../plugin-api/manifest.ts';
import { countedPipeline } from '../observability/counted-pipeline.ts';
import { NotificationPipelineService } from '../pipeline/notification-pipeline.ts';
import { SubscriptionService } from '../subscriptions/subscription-service.ts';
import { wirePluginParts, type WiredParts } from '../plugins/plugin-parts.ts';
import type { Wiring } from './services.ts';

/**
 * ProcessNotificationEvents, the subscription use cases, and the feed
 * plugins' contexts (the pipeline is their only way to deliver).
 * Fills `wiring.pipeline`.
 */
async function pipeline(app: FastifyInstance, { wiring }: { wiring: Wiring }) {
  const { platform } = wiring;
  const { db } = wiring.external;
  const { targets, lanes, fanouts, rules } = wiring.delivery;
  const settings = platform.config.NotificationPipeline;
  const service = new NotificationPipelineService({
    db,
    registry: platform.registry,
    rules,
    lanes,
    fanouts,
    log: app.log.child({ component: 'pipeline' }),
    enabled: settings.Enabled,
    rendering: wiring.delivery.rendering,
    firstPageSize: settings.FanoutPageSize,
    holdAboveSubscriptions: settings.HoldAboveSubscriptions,
  });
  // What every caller hands events to: counted in the metrics.
  const handOver = countedPipeline(service, wiring.observability.metrics);
  const subscriptions = new SubscriptionService({
    db,
    registry: platform.registry,
    targets,
    pipeline: handOver,
    limits: platform.config.SubscriptionLimits,
    nodeEnv: platform.config.NODE_ENV,
    cooldownSeconds: settings.CooldownSeconds,
    now: platform.now,
  });
  const feedContexts = new Map<string, FeedPluginContext>();
  const feedParts = new Map<string, WiredParts>();
  for (const manifest of platform.registry.feeds) {
    const context: FeedPluginContext = {
      pluginId: manifest.id,
      // biome-ignore lint/suspicious/noExplicitAny: each plugin's own sections, typed by the plugin, not by core
      config: platform.sectionsOf(manifest.id) as SectionsConfig<any>,
      coreConfig: platform.coreSettings,
      db,
      log: app.log.child({ plugin: manifest.id }),
      auth: wiring.coreServices.auth,
      now: platform.now,
      pipeline: handOver,
      metrics: wiring.observability.metrics.forPlugin(manifest.id),
      feeds: platform.feeds,
    };
    feedContexts.set(manifest.id, context);
    feedParts.set(manifest.id, await wirePluginParts(manifest, context));
  }
  wiring.pipeline = { pipeline: service, handOver, subscriptions, feedContexts, feedParts };
}

export const pipelineWiring = fp(pipeline, { name: 'np-pipeline', dependencies: ['np-delivery'] });
