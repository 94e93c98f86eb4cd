import { defineFeedPlugin } from '#plugin-api';
import { scheduledOutageMonitor } from './monitor.ts';
import { scheduledOutagesConfig } from './config.ts';
import { scheduledOutagePresentation } from './presentation.ts';
import { scheduledOutagePublicViews } from './public-views.ts';
import { SCHEDULED_OUTAGE_EVENT_TYPES } from './scheduled-types.ts';
import { SCHEDULED_OUTAGES_FEED_ID, scheduledOutageRenderers } from './renderers.ts';

/**
 * The utility's planned outages, with daily and weekly digests, day-before
 * reminders, and a notice to confirm for the people on the utility's
 * register (`ConfirmNotice`, ConfirmNoticeDays ahead: it carries `confirmBy`).
 */
export const manifest = defineFeedPlugin({
  id: 'utility-scheduled-outages',
  apiVersion: 5,
  description: 'Planned outages of the utility: new entries, changes, cancellations, digests, reminders and notices to confirm.',
  config: scheduledOutagesConfig,
  feed: {
    id: SCHEDULED_OUTAGES_FEED_ID,
    displayName: 'Scheduled outages',
    eventTypes: SCHEDULED_OUTAGE_EVENT_TYPES,
    // What people narrow it by, in its words (the other languages' are in locales/, filter.<id>.*); the ids are the
    // filter properties its subscriptions have always had.
    filterFields: [
      {
        id: 'locationKeywords',
        label: 'Areas',
        hint: 'Comma-separated. Part of a name is enough. Leave empty for every area.',
        example: 'Kandy, Peradeniya',
        match: 'contains',
      },
      { id: 'feeders', label: 'Feeders', hint: 'Comma-separated feeder codes. Leave empty for every feeder.', example: 'F12, F7', match: 'equals' },
      { id: 'keywords', label: 'Keywords', hint: 'Comma-separated words to look for anywhere in an alert. Leave empty to skip.', match: 'contains' },
    ],
  },
  monitor: scheduledOutageMonitor,
  renderers: scheduledOutageRenderers,
  coalescedEventTypes: ['Updated'],
  // A cancellation always goes, even past a subscriber's budget of messages for the entry.
  endEventTypes: ['Cancelled'],
  // A change still held by a subscriber's cooldown must not arrive after the outage's cancellation.
  publicViews: scheduledOutagePublicViews,
  presentation: scheduledOutagePresentation,
  timeZone: (config) => config.ScheduledOutages.TimeZone,
  systemSubscription: { name: 'ScheduledOutages', pushTopic: 'utility-scheduled-outages' },
});
