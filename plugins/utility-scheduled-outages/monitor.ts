import { externalProviderRequest, pollJsonFeed, type NotificationEvent, type PluginContext, type WorkerDefinition } from '#plugin-api';
import type { scheduledOutagesConfig } from './config.ts';
import { detectScheduledOutageChanges } from './detector.ts';
import { digestPayload, digestScheduleFromConfig, DAILY_HORIZON_DAYS, dueDigests } from './digest-gating.ts';
import { loadRecordedRuns, recordRun } from './digest-store.ts';
import { sourceKeyOf, toNotificationEvents } from './event-mapper.ts';
import { validateScheduledOutageFeed } from './feed-schema.ts';
import { addDays, isoWeek, localParts } from './local-time.ts';
import { SCHEDULED_OUTAGES_FEED_ID } from './renderers.ts';
import { loadStoredItems, loadUpcoming, persistItems } from './scheduled-store.ts';

type Context = PluginContext<typeof scheduledOutagesConfig>;
export const MONITOR_NAME = 'utility-scheduled-outages.monitor';

/** POLL → validate → in one transaction DETECT, PERSIST, MAP, ProcessNotificationEvents, mark the answer seen. */
async function syncFeed(context: Context, signal: AbortSignal): Promise<void> {
  const request = externalProviderRequest(context.coreConfig.ExternalProvider, 'utility-scheduled-outages', 'scheduled-outages', context.config.ScheduledOutages.FeedTimeoutSeconds, signal);
  const poll = await pollJsonFeed(context.endpoints, request, validateScheduledOutageFeed);
  if (!poll.changed) return;
  const items = poll.value.outages;
  const now = context.now();
  const result = await context.db.transaction(async (trx) => {
    const stored = await loadStoredItems(trx, items.map((item) => item.id));
    const changes = detectScheduledOutageChanges(items, stored).map((change) => ({ ...change, sourceKey: sourceKeyOf(change) }));
    await persistItems(trx, items, changes, now);
    const events = toNotificationEvents(changes);
    const processed = events.length > 0 ? await context.pipeline.processNotificationEvents(events, { trx }) : null;
    await poll.markSeen(trx);
    return { items: items.length, events: events.length, processed };
  });
  context.log.info(
    { outages: result.items, events: result.events, MatchedSubscriptionCount: result.processed?.matchedSubscriptionCount ?? 0, DeliveredCount: result.processed?.deliveredCount ?? 0 },
    'scheduled-outage feed synced',
  );
}

/**
 * Digests and reminders due now (the pure gating policy decides), each
 * handed to the pipeline in its own transaction; its run is recorded in the
 * same transaction only when a System subscription got it.
 */
async function sendDueDigests(context: Context): Promise<void> {
  const now = context.now();
  const schedule = digestScheduleFromConfig(context.config.ScheduledOutages);
  const today = localParts(now, schedule.timeZone).date;
  const tomorrow = addDays(today, 1);
  const upcoming = await loadUpcoming(context.db, today, addDays(today, DAILY_HORIZON_DAYS));
  const recorded = await loadRecordedRuns(context.db, [today, isoWeek(today)], [tomorrow]);
  for (const digest of dueDigests(now, schedule, upcoming, recorded)) {
    const event: NotificationEvent = {
      feedId: SCHEDULED_OUTAGES_FEED_ID,
      eventType: digest.kind,
      sourceKey: digest.sourceKey,
      fields: digest.fields,
      sourcePayload: digestPayload(digest),
    };
    const result = await context.db.transaction(async (trx) => {
      const processed = await context.pipeline.processNotificationEvents([event], { trx });
      if (processed.wasSystemDelivery) await recordRun(trx, digest, now);
      return processed;
    });
    context.log.info(
      { digest: digest.kind, sourceKey: digest.sourceKey, outages: digest.outages.length, MatchedSubscriptionCount: result.matchedSubscriptionCount, recorded: result.wasSystemDelivery },
      'scheduled-outage digest handed over',
    );
  }
}

/**
 * SyncScheduledOutagesAndPublishEvents. A failing feed does not stop the
 * digests (they list what is stored); its error is rethrown afterwards so
 * the scheduler logs it.
 */
export async function syncScheduledOutagesAndPublishEvents(context: Context, signal: AbortSignal): Promise<void> {
  let feedError: unknown;
  try {
    await syncFeed(context, signal);
  } catch (error) {
    feedError = error;
  }
  await sendDueDigests(context);
  if (feedError) throw feedError;
}

export function scheduledOutageMonitor(context: Context): WorkerDefinition {
  return {
    name: MONITOR_NAME,
    intervalSeconds: context.config.ScheduledOutages.PollingIntervalSeconds,
    run: ({ signal }) => syncScheduledOutagesAndPublishEvents(context, signal),
  };
}
