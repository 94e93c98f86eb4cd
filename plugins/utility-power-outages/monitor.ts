import { externalProviderRequest, pollJsonFeed, type PluginContext, type WorkerDefinition } from '#plugin-api';
import type { powerOutagesConfig } from './config.ts';
import { detectPowerOutageChanges } from './detector.ts';
import { toNotificationEvents } from './event-mapper.ts';
import { validatePowerOutageFeed } from './feed-schema.ts';
import { loadStoredOutages, persistOutages } from './outage-store.ts';

type Context = PluginContext<typeof powerOutagesConfig>;
export const MONITOR_NAME = 'utility-power-outages.monitor';

/**
 * SyncPowerOutagesAndPublishEvents: POLL (through the endpoint checker, so
 * an unchanged feed stops here) → validate → in one transaction: load the
 * stored state, DETECT, PERSIST, MAP and hand the events to
 * ProcessNotificationEvents, then mark the answer seen. A bad answer
 * (HTTP error, timeout, bad JSON, wrong shape) fails this poll only: it
 * throws, the scheduler logs it, nothing stored changes and no event goes out.
 */
export async function syncPowerOutagesAndPublishEvents(context: Context, signal: AbortSignal): Promise<void> {
  const request = externalProviderRequest(context.coreConfig.ExternalProvider, 'utility-power-outages', 'power-outages', context.config.PowerOutages.FeedTimeoutSeconds, signal);
  const poll = await pollJsonFeed(context.endpoints, request, validatePowerOutageFeed);
  if (!poll.changed) return;
  const items = poll.value.outages;
  const now = context.now();
  const result = await context.db.transaction(async (trx) => {
    const stored = await loadStoredOutages(trx, items.map((item) => item.id));
    const changes = detectPowerOutageChanges(items, stored);
    await persistOutages(trx, items, changes, now);
    const events = toNotificationEvents(changes);
    const processed = events.length > 0 ? await context.pipeline.processNotificationEvents(events, { trx }) : null;
    await poll.markSeen(trx);
    return { outages: items.length, events: events.length, processed };
  });
  context.log.info(
    {
      outages: result.outages,
      events: result.events,
      MatchedSubscriptionCount: result.processed?.matchedSubscriptionCount ?? 0,
      DeliveredCount: result.processed?.deliveredCount ?? 0,
      ClaimedCount: result.processed?.claimedCount ?? 0,
    },
    'power-outage feed synced',
  );
}

export function powerOutageMonitor(context: Context): WorkerDefinition {
  return {
    name: MONITOR_NAME,
    intervalSeconds: context.config.PowerOutages.PollingIntervalSeconds,
    run: ({ signal }) => syncPowerOutagesAndPublishEvents(context, signal),
  };
}
