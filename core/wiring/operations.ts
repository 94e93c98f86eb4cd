import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ConfigError } from '../config/load-config.ts';
import { alertDestination, syncAlertSubscription } from '../feed-health/alert-subscription.ts';
import { createPollRecorder } from '../feed-health/poll-recorder.ts';
import type { PollReport } from '../feeds/poll-report.ts';
import { adminDeliveryRoutes } from '../http/routes/admin-deliveries.ts';
import { adminFeedRoutes } from '../http/routes/admin-feeds.ts';
import { metricsRoutes } from '../http/routes/metrics.ts';
import { docsUiOptions } from '../http/openapi.ts';
import { createSecretScrubber } from '../logging/redaction.ts';
import { registerDatabaseGauges } from '../observability/database-gauges.ts';
import type { Wiring } from './services.ts';
import type { MonitoredFeed } from '../feed-health/feed-health-view.ts';

export interface Operations {
  /** The feed monitors' onPoll: counts, logs and records every poll (feed health, its alerts). */
  readonly recordPoll: (report: PollReport) => Promise<void>;
  /** The installed feeds as feed health shows them (the admin view, the console). */
  readonly monitoredFeeds: readonly MonitoredFeed[];
  /** Providers whose targets deliver directly (their failed deliveries can be requeued in the ledger). */
  readonly directProviders: readonly string[];
}

/**
 * What an operator reads and does, once the pipeline and the routes are
 * wired: feed health (the poll recorder and its alert subscription), the
 * gauges read from the database, /metrics, /docs, and the admin views of
 * feeds and deliveries. Fills `wiring.operations`.
 */
async function operations(app: FastifyInstance, { wiring }: { wiring: Wiring }) {
  const { platform } = wiring;
  const { db } = wiring.external;
  const { metrics } = wiring.observability;
  const { targets, dispatcher } = wiring.delivery;
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
    pipeline: wiring.pipeline.handOver,
    log: app.log,
    settings: { staleAfterPolls: settings.StaleAfterPolls },
    alerts: destination !== null,
    feedName: (feedId) => names.get(feedId) ?? feedId,
    countPoll: (report) => metrics.countPoll(report),
    scrub: createSecretScrubber(platform.config.ExternalProvider.ApiKey ? [platform.config.ExternalProvider.ApiKey] : []),
  });
  registerDatabaseGauges(metrics, db, [...targets.keys()]);
  if (metrics.enabled) await app.register(metricsRoutes, { metrics });
  await app.register(fastifySwaggerUi, docsUiOptions);
  const pipelineOn = platform.config.NotificationPipeline.Enabled;
  const feeds = platform.registry.feeds.map((manifest) => {
    const monitor = platform.monitors.get(manifest.id)!;
    return { id: manifest.feed.id, displayName: manifest.feed.displayName, enabled: pipelineOn && monitor.Enabled, pollingIntervalSeconds: monitor.PollingIntervalSeconds };
  });
  await app.register(adminFeedRoutes, { db, feeds, staleAfterPolls: settings.StaleAfterPolls, now: platform.now });
  const directProviders = [...targets].filter(([, target]) => target.deliver && !target.enqueue).map(([provider]) => provider);
  const feedIds = [...platform.registry.feeds.map((manifest) => manifest.feed.id), ...platform.registry.coreFeedIds()];
  await app.register(adminDeliveryRoutes, { db, dispatcher, directProviders, feedIds });
  wiring.operations = { recordPoll, monitoredFeeds: feeds, directProviders };
}

export const operationsWiring = fp(operations, { name: 'np-operations', dependencies: ['np-routes'] });
