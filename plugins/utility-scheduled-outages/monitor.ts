import { defineFeedMonitor, type SectionsConfig } from '#plugin-api';
import type { scheduledOutagesConfig } from './config.ts';
import { detectScheduledOutageChanges } from './detector.ts';
import { sendDueDigests } from './digest-sender.ts';
import { sendDueNotices } from './notice-sender.ts';
import { sourceKeyOf, toNotificationEvents } from './event-mapper.ts';
import { scheduledOutageAnswer } from './feed-schema.ts';
import { scheduledStore } from './scheduled-store.ts';

/**
 * SyncScheduledOutagesAndPublishEvents: GET {ExternalProvider__BaseUrl}/scheduled-outages,
 * core's load → detect → persist → map → hand-over, then the digests and the notices to confirm due.
 * Each change carries its SourceKey from detection on, so the history
 * (PERSIST) and the event (MAP) name it alike.
 */
export const scheduledOutageMonitor = defineFeedMonitor({
  settings: (config: SectionsConfig<typeof scheduledOutagesConfig>) => config.ScheduledOutages,
  path: 'scheduled-outages',
  // The utility's own feed API, shared with its other feed: ExternalProvider__* unless this feed's section sets its own.
  sharedSource: true,
  answer: scheduledOutageAnswer,
  store: scheduledStore,
  detect: (items, stored) => detectScheduledOutageChanges(items, stored).map((change) => ({ ...change, sourceKey: sourceKeyOf(change) })),
  map: (changes) => toNotificationEvents(changes),
  // Then what is due of what is stored, whatever the poll came to: the digests, and the notices to confirm.
  afterPoll: async (context) => {
    await sendDueDigests(context);
    await sendDueNotices(context);
  },
});
