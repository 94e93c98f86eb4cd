import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ConfigError } from '../config/load-config.ts';
import { alertDestination, syncAlertSubscription } from '../feed-health/alert-subscription.ts';
import { createPollRecorder } from '../feed-health/poll-recorder.ts';
import { adminDeliveryRoutes } from '../routes/admin-deliveries.ts';
import { adminTraceRoutes } from '../routes/admin-trace.ts';
import { adminFeedRoutes } from '../routes/admin-feeds.ts';
import { adminLaneRoutes } from '../routes/admin-lanes.ts';
import { metricsRoutes } from '../routes/metrics.ts';
import { docsUiOptions } from '../http/openapi.ts';
import { createSecretScrubber } from '../logging/redaction.ts';
import { registerDatabaseGauges } from '../observability/database-gauges.ts';
import type { Delivery, External, Observability, Operations, Pipeline, Platform } from './services.ts';

/**
 * What an operator reads and does, once the pipeline and the routes are
 * wired: feed health (the poll recorder and its alert subscription), the
 * gauges read from the database, /metrics, /docs, and the admin views of
 * feeds and deliveries.
 */
export async function wireOperations(
  app: FastifyInstance,
  inputs: {
    readonly platform: Platform;
    readonly external: External;
    readonly observability: Observability;
    readonly delivery: Delivery;
    readonly pipeline: Pipeline;
  },
): Promise<Operations> {
  const { platform, delivery } = inputs;
  const { db } = inputs.external;
  const { metrics } = inputs.observability;
  const { targets, lanes } = delivery;
  const settings = platform.config.FeedHealth;
  let destination: string | null;
  try {
    destination = alertDestination(settings.AlertTopic, targets);
  } catch (error) {
    throw new ConfigError([(error as Error).message]);
  }
  await syncAlertSubscription(db, destination);
  const names = new Map(platform.registry.feeds.map((manifest) => [manifest.feed.id, manifest.feed.displayName]));
  const recordPoll = createPollRecorder({
    db,
    pipeline: inputs.pipeline.handOver,
    log: app.log,
    settings: { staleAfterPolls: settings.StaleAfterPolls },
    alerts: destination !== null,
    feedName: (feedId) => names.get(feedId) ?? feedId,
    countPoll: (report) => metrics.countPoll(report),
    // A feed's own key, or the shared one, never reaches feed health's records or alerts.
    scrub: createSecretScrubber([...platform.sources.values()].flatMap((source) => (source.apiKey ? [source.apiKey] : []))),
  });
  const rates = new Map([...delivery.controls].filter(([provider]) => targets.has(provider)).map(([provider, control]) => [provider, control.ratePerSecond]));
  registerDatabaseGauges(metrics, db, rates);
  if (metrics.enabled) await app.register(metricsRoutes, { metrics });
  await app.register(fastifySwaggerUi, docsUiOptions);
  const pipelineOn = platform.config.NotificationPipeline.Enabled;
  const feeds = platform.registry.feeds.map((manifest) => {
    const monitor = platform.monitors.get(manifest.id)!;
    return {
      id: manifest.feed.id,
      displayName: manifest.feed.displayName,
      enabled: pipelineOn && monitor.Enabled,
      pollingIntervalSeconds: monitor.PollingIntervalSeconds,
    };
  });
  await app.register(adminFeedRoutes, { db, feeds, staleAfterPolls: settings.StaleAfterPolls, now: platform.now });
  const directProviders = [...targets].filter(([, target]) => target.deliver && !target.enqueue).map(([provider]) => provider);
  const feedIds = [...platform.registry.feeds.map((manifest) => manifest.feed.id), ...platform.registry.coreFeedIds()];
  await app.register(adminDeliveryRoutes, { db, lanes, directProviders, feedIds });
  await app.register(adminTraceRoutes, { db, filters: delivery.rules.filters, providers: [...targets.keys()] });
  await app.register(adminLaneRoutes, { db, rates });
  return { recordPoll, monitoredFeeds: feeds, directProviders, rates };
}
