import type { FastifyInstance } from 'fastify';
import { feedMonitorWorker } from '../feeds/feed-monitor-runner.ts';
import { retentionWorker } from '../retention/retention-worker.ts';
import { catchUpWorker } from '../pipeline/quiet-hours/catch-up-release.ts';
import { escalationWorker } from '../confirmation/escalation-worker.ts';
import { syncSystemSubscriptions } from '../subscriptions/system-subscriptions.ts';
import type { WiredBefore } from './services.ts';

/**
 * Once everything is wired (onReady): the env system subscriptions, then
 * the work this instance does. With the pipeline on, the dispatcher always
 * answers wake-ups; with workers on, every queue is started and swept, and
 * the monitors of the enabled feeds and the plugins' own workers run.
 */
export function wireWorkers(app: FastifyInstance, inputs: WiredBefore): void {
  const { platform, delivery, pipeline } = inputs;
  const { db, workers: scheduler, readiness } = inputs.external;
  const { queues, endpoints } = inputs.coreServices;
  const { targets } = delivery;
  const { handOver, feedContexts } = pipeline;
  const { recordPoll } = inputs.operations;
  const pipelineOn = platform.config.NotificationPipeline.Enabled;
  // The queues of the pipeline itself (off with the master switch); plugins' queues (the email outbox) run regardless.
  const PIPELINE_QUEUES = [...delivery.fanouts.queueNames(), ...delivery.lanes.queueNames()];
  app.addHook('onReady', async () => {
    await syncSystemSubscriptions(db, platform.config.NotificationPipeline.SystemSubscriptions, platform.registry, targets);
    if (!platform.runWorkers) {
      if (pipelineOn) queues.start({ sweeps: false, names: PIPELINE_QUEUES });
    } else {
      const names = pipelineOn ? undefined : queues.names().filter((name) => !PIPELINE_QUEUES.includes(name));
      for (const sweep of queues.start({ sweeps: true, names })) scheduler.register(sweep);
      scheduler.register(retentionWorker(db, platform.config.Retention, platform.now));
      if (pipelineOn) {
        const { lanes, rendering } = delivery;
        scheduler.register(
          catchUpWorker({
            db,
            now: platform.now,
            zoneOf: (feedId) => platform.feeds.get(feedId)?.timeZone ?? 'UTC',
            notifyLanes: (trx, providers) => lanes.notify(trx, providers),
            rendering,
          }),
        );
        scheduler.register(
          escalationWorker(
            {
              db,
              now: platform.now,
              listAfterMinutes: platform.config.Confirmation.ListAfterMinutes,
              installed: () => new Set(targets.keys()),
              notifyLanes: (trx, providers) => lanes.notify(trx, providers),
            },
            platform.config.Confirmation.IntervalSeconds,
          ),
        );
      }
      for (const manifest of platform.registry.feeds) {
        const context = feedContexts.get(manifest.id)!;
        if (!pipelineOn || !platform.monitors.get(manifest.id)!.Enabled) continue;
        scheduler.register(
          feedMonitorWorker(manifest, context.config, {
            db,
            endpoints,
            pipeline: handOver,
            source: platform.sources.get(manifest.id)!,
            log: context.log,
            now: platform.now,
            onPoll: recordPoll,
          }),
        );
        for (const worker of pipeline.feedParts.get(manifest.id)!.workers()) scheduler.register(worker);
      }
      for (const manifest of platform.registry.deliveries) {
        for (const worker of delivery.parts.get(manifest.id)!.workers()) scheduler.register(worker);
      }
    }
    readiness.pluginsLoaded = true;
  });
}
