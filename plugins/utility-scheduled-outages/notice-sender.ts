import type { FeedMonitorRunContext, NotificationEvent, SectionsConfig } from '#plugin-api';
import type { scheduledOutagesConfig } from './config.ts';
import { dueNotices, noticeHorizon, type DueNotice, type NoticeSchedule } from './confirm-notices.ts';
import { fieldsOf } from './event-mapper.ts';
import { localParts } from './local-time.ts';
import { SCHEDULED_OUTAGES_FEED_ID } from './renderers.ts';
import { loadUpcoming } from './scheduled-store.ts';

type Context = FeedMonitorRunContext<SectionsConfig<typeof scheduledOutagesConfig>>;

/** The source key of an outage's notice to confirm. */
export const noticeKey = (outageId: string) => `${outageId}:notice`;

/** The notice as an event: it goes only to subscribers who confirm, who confirm it by the outage's start. */
export const noticeEvent = ({ outage, startsAt }: DueNotice): NotificationEvent => ({
  feedId: SCHEDULED_OUTAGES_FEED_ID,
  eventType: 'ConfirmNotice',
  sourceKey: noticeKey(outage.id),
  itemKey: outage.id,
  fields: fieldsOf(outage),
  sourcePayload: outage,
  confirmBy: startsAt.toISOString(),
  ...(outage.geometry ? { geometry: outage.geometry } : {}),
});

/**
 * The notices to confirm due now (the pure `dueNotices` decides), handed
 * to the pipeline in one transaction with their record: each outage's
 * notice goes once, across restarts and instances (a second instance's
 * record of the same outage fails its transaction, and hands nothing over).
 */
export async function sendDueNotices({ config, db, pipeline, log, now }: Context): Promise<void> {
  const settings = config.ScheduledOutages;
  const schedule: NoticeSchedule = { timeZone: settings.TimeZone, days: settings.ConfirmNoticeDays, hour: settings.ConfirmNoticeHour };
  if (schedule.days <= 0) return;
  const upcoming = await loadUpcoming(db, localParts(now, schedule.timeZone).date, noticeHorizon(now, schedule));
  if (upcoming.length === 0) return;
  const noticed = await db('scheduled_outage_notices')
    .whereIn(
      'outage_id',
      upcoming.map((outage) => outage.id),
    )
    .pluck('outage_id');
  const due = dueNotices(now, schedule, upcoming, new Set<string>(noticed));
  if (due.length === 0) return;
  const result = await db.transaction(async (trx) => {
    await trx('scheduled_outage_notices').insert(due.map((notice) => ({ outage_id: notice.outage.id, source_key: noticeKey(notice.outage.id), sent_at: now })));
    return pipeline.processNotificationEvents(due.map(noticeEvent), { trx });
  });
  log.info(
    { notices: due.length, outages: due.map((notice) => notice.outage.id), MatchedSubscriptionCount: result.matchedSubscriptionCount },
    'planned-outage notices to confirm handed over',
  );
}
