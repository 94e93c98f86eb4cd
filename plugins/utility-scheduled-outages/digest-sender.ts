import type { FeedMonitorRunContext, NotificationEvent, SectionsConfig } from '#plugin-api';
import type { scheduledOutagesConfig } from './config.ts';
import { digestPayload, digestScheduleFromConfig, DAILY_HORIZON_DAYS, dueDigests } from './digest-gating.ts';
import { loadRecordedRuns, recordRun } from './digest-store.ts';
import { addDays, isoWeek, localParts } from './local-time.ts';
import { SCHEDULED_OUTAGES_FEED_ID } from './renderers.ts';
import { loadUpcoming } from './scheduled-store.ts';

type Context = FeedMonitorRunContext<SectionsConfig<typeof scheduledOutagesConfig>>;

/**
 * Digests and reminders due now (the pure gating policy decides), each
 * handed to the pipeline in its own transaction; its run is recorded in the
 * same transaction only when a System subscription got it. Runs on every
 * tick, whatever the poll came to: a failing feed does not stop the digests
 * (they list what is stored).
 */
export async function sendDueDigests({ config, db, pipeline, log, now }: Context): Promise<void> {
  const schedule = digestScheduleFromConfig(config.ScheduledOutages);
  const today = localParts(now, schedule.timeZone).date;
  const tomorrow = addDays(today, 1);
  const upcoming = await loadUpcoming(db, today, addDays(today, DAILY_HORIZON_DAYS));
  const recorded = await loadRecordedRuns(db, [today, isoWeek(today)], [tomorrow]);
  for (const digest of dueDigests(now, schedule, upcoming, recorded)) {
    const event: NotificationEvent = {
      feedId: SCHEDULED_OUTAGES_FEED_ID,
      eventType: digest.kind,
      sourceKey: digest.sourceKey,
      fields: digest.fields,
      sourcePayload: digestPayload(digest),
    };
    const result = await db.transaction(async (trx) => {
      const processed = await pipeline.processNotificationEvents([event], { trx });
      if (processed.wasSystemDelivery) await recordRun(trx, digest, now);
      return processed;
    });
    log.info(
      {
        digest: digest.kind,
        sourceKey: digest.sourceKey,
        outages: digest.outages.length,
        MatchedSubscriptionCount: result.matchedSubscriptionCount,
        recorded: result.wasSystemDelivery,
      },
      'scheduled-outage digest handed over',
    );
  }
}
