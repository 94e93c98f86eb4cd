import { powerOutageMap } from './map-view.ts';
import { defineFeedPlugin } from '#plugin-api';
import { announcementEvent, announcementRoutes } from './announcements.ts';
import { powerOutageAlerts } from './cap-alerts.ts';
import { powerOutagesConfig } from './config.ts';
import { powerOutagePresentation } from './presentation.ts';
import { powerOutageMonitor } from './monitor.ts';
import { ongoingOutages } from './ongoing.ts';
import { estimateWorthTelling } from './estimate-policy.ts';
import { POWER_OUTAGE_EVENT_TYPES } from './outage-types.ts';
import { POWER_OUTAGES_FEED_ID, powerOutageRenderers } from './renderers.ts';

/** The utility's live power-outage feed: new outages, estimate updates, restorations, and admin announcements. */
export const manifest = defineFeedPlugin({
  id: 'utility-power-outages',
  apiVersion: 4,
  description: 'Live power outages of the utility: new outages, estimated restoration updates, restorations and admin announcements.',
  config: powerOutagesConfig,
  feed: {
    id: POWER_OUTAGES_FEED_ID,
    displayName: 'Power outages',
    eventTypes: POWER_OUTAGE_EVENT_TYPES,
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
  monitor: powerOutageMonitor,
  renderers: powerOutageRenderers,
  // Several estimate changes inside a subscription's cooldown give one message, the latest; a Restoration makes a waiting one pointless.
  coalescedEventTypes: ['EstimateUpdated'],
  // A restoration always goes, even past a subscriber's budget of messages for the outage.
  endEventTypes: ['Restoration', 'RestoredAnnouncement'],
  // An estimate that moved a little is no news: told only past PowerOutages__EstimateChangeMinutes from the last one told.
  worthTelling: (event, lastTold, config) => estimateWorthTelling(event, lastTold, config.PowerOutages.EstimateChangeMinutes),
  // "Power restored" asks whether it really is: a link (or, by text, a reply OUT) to report that it is still off.
  stillOutEventTypes: ['Restoration', 'RestoredAnnouncement'],
  publicViews: { alerts: powerOutageAlerts, map: powerOutageMap },
  presentation: powerOutagePresentation,
  // A power cut, or the utility speaking, is news at any hour; the rest can wait for a subscriber's quiet hours to end.
  urgentEventTypes: ['NewOutage', 'ManualAnnouncement'],
  timeZone: (config) => config.PowerOutages.TimeZone,
  systemSubscription: { name: 'PowerOutages', pushTopic: 'utility-power-outages' },
  // What an SMS STATUS reply (or any target that asks) reads: the outages going on now.
  ongoing: ongoingOutages,
  // Its routes from setup(context): what they use comes from the context they close over.
  setup: (context) => ({ routes: (app) => announcementRoutes(app, context) }),
  // The operator console's announcements: the same event the admin route sends.
  announcement: (input) => announcementEvent({ title: input.title, message: input.message, areas: [...input.areas], feeders: [...input.feeders] }),
});
