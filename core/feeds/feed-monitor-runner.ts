import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import type { EndpointChecker } from './endpoint-types.ts';
import type { AnyFeedMonitor } from '../plugin-api/feed-monitor.ts';
import type { FeedPluginManifest, SectionsConfig } from '../plugin-api/manifest.ts';
import type { NotificationPipeline } from '../plugin-api/pipeline-types.ts';
import type { WorkerDefinition } from '../plugin-api/worker-types.ts';
import type { FeedSource } from './feed-source.ts';
import { feedRequest, parseJsonAnswer } from './json-answer.ts';
import { countByType, describePollError, type PollReport } from './poll-report.ts';

// biome-ignore lint/suspicious/noExplicitAny: a monitor of any plugin, whose own settings type core cannot name
type PluginConfig = SectionsConfig<any>;

export interface FeedMonitorDependencies {
  readonly db: Knex;
  readonly endpoints: EndpointChecker;
  readonly pipeline: NotificationPipeline;
  /** Where this feed polls and with which key (feedSource). */
  readonly source: FeedSource;
  readonly log: FastifyBaseLogger;
  readonly now: () => Date;
  /** Called once per poll with what it came to (feed health, metrics); a failure here is logged, never thrown. */
  readonly onPoll?: (report: PollReport) => Promise<void> | void;
}

/** The worker core registers for a feed plugin's monitor: `<plugin id>.monitor`, one run per period cluster-wide. */
export function feedMonitorWorker(plugin: FeedPluginManifest, config: PluginConfig, deps: FeedMonitorDependencies): WorkerDefinition {
  const settings = plugin.monitor.settings(config);
  return {
    name: `${plugin.id}.monitor`,
    intervalSeconds: settings.PollingIntervalSeconds,
    run: async ({ signal }) => void (await runFeedMonitor(plugin, config, deps, signal)),
  };
}

/**
 * One tick of a feed monitor: the poll, then the plugin's `afterPoll` work
 * whatever the poll came to; a failed poll is rethrown last, so the
 * scheduler logs it and the next tick runs as planned.
 */
async function runFeedMonitor(plugin: FeedPluginManifest, config: PluginConfig, deps: FeedMonitorDependencies, signal: AbortSignal): Promise<PollReport> {
  const report = await pollFeed(plugin, config, deps, signal);
  try {
    await deps.onPoll?.(report);
  } catch (err) {
    deps.log.warn({ err, feed: report.feedId }, 'recording the poll failed');
  }
  if (plugin.monitor.afterPoll) {
    await plugin.monitor.afterPoll({ config, db: deps.db, pipeline: deps.pipeline, log: deps.log, now: deps.now() });
  }
  if (report.outcome === 'failed') throw Object.assign(new Error(report.error!.message), { name: report.error!.kind });
  return report;
}

/**
 * POLL → parse → in one transaction: load the feed store, DETECT, PERSIST,
 * MAP, hand the events over, mark the answer seen. Anything failing before
 * the commit leaves the store, the ledger and the endpoint check as they
 * were, so the same answer is processed again next time. An unchanged
 * answer runs the same steps on what the store's `waiting` returns, if it
 * has one and returns anything (the report stays `unchanged`).
 */
export async function pollFeed(plugin: FeedPluginManifest, config: PluginConfig, deps: FeedMonitorDependencies, signal: AbortSignal): Promise<PollReport> {
  const monitor: AnyFeedMonitor = plugin.monitor;
  const startedAt = deps.now();
  const started = performance.now();
  const base = { pluginId: plugin.id, feedId: plugin.feed.id, startedAt };
  const finish = (rest: Omit<PollReport, 'pluginId' | 'feedId' | 'startedAt' | 'durationMs'>): PollReport => ({
    ...base,
    durationMs: Math.round(performance.now() - started),
    ...rest,
  });
  try {
    const settings = monitor.settings(config);
    const request = feedRequest(deps.source, plugin.id, monitor.path, settings.FeedTimeoutSeconds, signal, settings.MaxAnswerBytes);
    const check = await deps.endpoints.check(request);
    const waiting = monitor.store.waiting;
    if (!check.changed && !waiting) return finish({ outcome: 'unchanged' });
    const checked = check.changed ? parseJsonAnswer(request.key, check.body, monitor) : undefined;
    const answer = checked?.items;
    const rejected = checked?.rejected ?? [];
    const now = deps.now();
    const step = { now, config };
    const handedOver = await deps.db.transaction(async (trx) => {
      // An unchanged answer: only the stored items the store still has to decide on (none, mostly).
      const items = answer ?? (await waiting!(trx, { now }));
      if (!check.changed && items.length === 0) return undefined;
      const state = await monitor.store.load(trx, items);
      const changes = monitor.detect(items, state, step);
      await monitor.store.persist(trx, { items, state, changes, now });
      const events = monitor.map(changes, step);
      const result = events.length > 0 ? await deps.pipeline.processNotificationEvents(events, { trx }) : undefined;
      if (check.changed) await check.markSeen(trx);
      return { items, events, result };
    });
    if (!handedOver) return finish({ outcome: 'unchanged', ...(rejected.length > 0 ? { rejected } : {}) });
    // Logged, counted and recorded by onPoll (core/feed-health/poll-recorder.ts).
    return finish({
      outcome: check.changed ? 'changed' : 'unchanged',
      items: handedOver.items.length,
      eventsByType: countByType(handedOver.events),
      matchedSubscriptionCount: handedOver.result?.matchedSubscriptionCount ?? 0,
      claimedCount: handedOver.result?.claimedCount ?? 0,
      ...(rejected.length > 0 ? { rejected } : {}),
    });
  } catch (error) {
    return finish({ outcome: 'failed', error: describePollError(error) });
  }
}
