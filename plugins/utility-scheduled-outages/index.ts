import { fileURLToPath } from 'node:url';
import { defineFeedPlugin } from '#plugin-api';
import { digestScheduleFromConfig } from './digest-gating.ts';
import { scheduledOutageMonitor } from './monitor.ts';
import { scheduledOutagesConfig } from './config.ts';
import { detectScheduledOutageChanges } from './detector.ts';
import { SCHEDULED_OUTAGE_EVENT_TYPES } from './scheduled-types.ts';
import { SCHEDULED_OUTAGES_FEED_ID, scheduledOutageRenderers } from './renderers.ts';

/** The utility's planned outages, with daily and weekly digests and day-before reminders (monitor: issue 7). */
export const manifest = defineFeedPlugin({
  id: 'utility-scheduled-outages',
  description: 'Planned outages of the utility: new entries, changes, cancellations, digests and reminders.',
  config: scheduledOutagesConfig,
  feed: {
    id: SCHEDULED_OUTAGES_FEED_ID,
    displayName: 'Scheduled outages',
    eventTypes: SCHEDULED_OUTAGE_EVENT_TYPES,
    filterableFields: ['Feeder', 'Area', 'Keywords'],
  },
  enabled: (config) => config.ScheduledOutages.Enabled,
  detector: detectScheduledOutageChanges,
  renderers: scheduledOutageRenderers,
  coalescedEventTypes: ['Updated'],
  systemSubscription: { name: 'ScheduledOutages', pushTopic: 'utility-scheduled-outages' },
  migrationsDir: fileURLToPath(new URL('./migrations', import.meta.url)),
  checkConfig: (config) => {
    try {
      digestScheduleFromConfig(config.ScheduledOutages);
      return [];
    } catch (error) {
      return [`ScheduledOutages__TimeZone or digest hours: ${(error as Error).message}`];
    }
  },
  workers: (context) => [scheduledOutageMonitor(context)],
});
