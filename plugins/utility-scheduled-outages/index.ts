import { defineFeedPlugin } from '#plugin-api';
import { scheduledOutageMonitor } from './monitor.ts';
import { scheduledOutagesConfig } from './config.ts';
import { scheduledOutagePresentation } from './presentation.ts';
import { scheduledOutagePublicViews } from './public-views.ts';
import { SCHEDULED_OUTAGE_EVENT_TYPES } from './scheduled-types.ts';
import { SCHEDULED_OUTAGES_FEED_ID, scheduledOutageRenderers } from './renderers.ts';

/** The utility's planned outages, with daily and weekly digests and day-before reminders (monitor: issue 7). */
export const manifest = defineFeedPlugin({
  id: 'utility-scheduled-outages',
  apiVersion: 2,
  description: 'Planned outages of the utility: new entries, changes, cancellations, digests and reminders.',
  config: scheduledOutagesConfig,
  feed: {
    id: SCHEDULED_OUTAGES_FEED_ID,
    displayName: 'Scheduled outages',
    eventTypes: SCHEDULED_OUTAGE_EVENT_TYPES,
    filterableFields: ['Feeder', 'Area', 'Keywords'],
  },
  monitor: scheduledOutageMonitor,
  renderers: scheduledOutageRenderers,
  coalescedEventTypes: ['Updated'],
  // A change still held by a subscriber's cooldown must not arrive after the outage's cancellation.
  supersedes: { Cancelled: ['Updated'] },
  publicViews: scheduledOutagePublicViews,
  presentation: scheduledOutagePresentation,
  timeZone: (config) => config.ScheduledOutages.TimeZone,
  systemSubscription: { name: 'ScheduledOutages', pushTopic: 'utility-scheduled-outages' },
});
