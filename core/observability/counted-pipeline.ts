import type { NotificationPipeline } from '../plugin-api/pipeline-types.ts';
import type { ServiceMetrics } from './service-metrics.ts';

/**
 * ProcessNotificationEvents as every caller reaches it (monitors, digests,
 * announcements, /test, feed-health alerts), counting the events it takes
 * (`notification_events_total`) once they are stored: at once, or when
 * the caller's transaction commits (a rolled-back hand-over counts
 * nothing).
 */
export function countedPipeline(pipeline: NotificationPipeline, metrics: ServiceMetrics): NotificationPipeline {
  if (!metrics.enabled) return pipeline;
  return {
    async processNotificationEvents(events, options) {
      const result = await pipeline.processNotificationEvents(events, options);
      if (options?.trx)
        options.trx.executionPromise.then(
          () => metrics.countEvents(events),
          () => undefined,
        );
      else metrics.countEvents(events);
      return result;
    },
  };
}
