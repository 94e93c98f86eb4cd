import { defineFeedPlugin } from '#plugin-api';
import { powerOutagesConfig } from './config.ts';
import { detectPowerOutageChanges } from './detector.ts';
import { POWER_OUTAGE_EVENT_TYPES } from './outage-types.ts';
import { POWER_OUTAGES_FEED_ID, powerOutageRenderers } from './renderers.ts';

/** The utility's live power-outage feed. Its monitor (issue 6) polls /power-outages. */
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
});
