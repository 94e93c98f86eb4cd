import type { FastifyInstance } from 'fastify';
import type { FeedPluginContext, SectionsConfig } from '../plugin-api/manifest.ts';
import { countedPipeline } from '../observability/counted-pipeline.ts';
import { NotificationPipelineService } from '../pipeline/notification-pipeline.ts';
import { SubscriptionService } from '../subscriptions/subscription-service.ts';
import { wirePluginParts, type WiredParts } from '../plugins/plugin-parts.ts';
import type { CoreServices, Delivery, External, Observability, Pipeline, Platform } from './services.ts';

export interface PipelineInputs {
  readonly platform: Platform;
  readonly external: External;
  readonly observability: Observability;
  readonly coreServices: CoreServices;
  readonly delivery: Delivery;
}

/**
 * ProcessNotificationEvents, the subscription use cases, and the feed
 * plugins' contexts (the pipeline is their only way to deliver).
 */
export async function wirePipeline(app: FastifyInstance, inputs: PipelineInputs): Promise<Pipeline> {
  const { platform, observability, coreServices, delivery } = inputs;
  const { db } = inputs.external;
  const { targets, lanes, fanouts, rules } = delivery;
  const settings = platform.config.NotificationPipeline;
  const service = new NotificationPipelineService({
    db,
    registry: platform.registry,
    rules,
    lanes,
    fanouts,
    log: app.log.child({ component: 'pipeline' }),
    enabled: settings.Enabled,
    rendering: delivery.rendering,
    firstPageSize: settings.FanoutPageSize,
    holdAboveSubscriptions: settings.HoldAboveSubscriptions,
  });
  // What every caller hands events to: counted in the metrics.
  const handOver = countedPipeline(service, observability.metrics);
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
      auth: coreServices.auth,
      now: platform.now,
      pipeline: handOver,
      metrics: observability.metrics.forPlugin(manifest.id),
      feeds: platform.feeds,
    };
    feedContexts.set(manifest.id, context);
    feedParts.set(manifest.id, await wirePluginParts(manifest, context));
  }
  return { pipeline: service, handOver, subscriptions, feedContexts, feedParts };
}
