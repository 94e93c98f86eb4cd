import { fileURLToPath } from 'node:url';
import { defineFeedPlugin } from '#plugin-api';
import { announcementRoutes } from './announcements.ts';
import { powerOutagesConfig } from './config.ts';
import { detectPowerOutageChanges } from './detector.ts';
import { powerOutageMonitor } from './monitor.ts';
import { POWER_OUTAGE_EVENT_TYPES } from './outage-types.ts';
import { POWER_OUTAGES_FEED_ID, powerOutageRenderers } from './renderers.ts';

/** The utility's live power-outage feed: new outages, restorations, and admin announcements. */
export const manifest = defineFeedPlugin({
  id: 'utility-power-outages',
  description: 'Live power outages of the utility: new outages, restorations and admin announcements.',
  config: powerOutagesConfig,
  feed: {
    id: POWER_OUTAGES_FEED_ID,
    displayName: 'Power outages',
    eventTypes: POWER_OUTAGE_EVENT_TYPES,
    filterableFields: ['Feeder', 'Area', 'Keywords'],
  },
  enabled: (config) => config.PowerOutages.Enabled,
  detector: detectPowerOutageChanges,
  renderers: powerOutageRenderers,
  systemSubscription: { name: 'PowerOutages', pushTopic: 'utility-power-outages' },
  migrationsDir: fileURLToPath(new URL('./migrations', import.meta.url)),
  checkConfig: (config) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: config.PowerOutages.TimeZone });
      return [];
    } catch {
      return [`PowerOutages__TimeZone: "${config.PowerOutages.TimeZone}" is not an IANA time zone`];
    }
  },
  workers: (context) => [powerOutageMonitor(context)],
  routes: (app, context) => announcementRoutes(app, context),
});
