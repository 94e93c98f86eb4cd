import { defineFeedMonitor, type SectionsConfig } from '#plugin-api';
import type { powerOutagesConfig } from './config.ts';
import { detectPowerOutageChanges } from './detector.ts';
import { toNotificationEvents } from './event-mapper.ts';
import { powerOutageAnswer } from './feed-schema.ts';
import { outageStore } from './outage-store.ts';

/**
 * SyncPowerOutagesAndPublishEvents: GET {ExternalProvider__BaseUrl}/power-outages,
 * then core runs load → detect → persist → map → hand-over in one transaction.
 * The store's `waiting` hands an unchanged answer back to DETECT while an
 * outage waits for PowerOutages__MinOutageMinutes, so it is announced on
 * the first poll past its threshold, whether the feed changed or not.
 */
export const powerOutageMonitor = defineFeedMonitor({
  settings: (config: SectionsConfig<typeof powerOutagesConfig>) => config.PowerOutages,
  path: 'power-outages',
  // The utility's own feed API, shared with its other feed: ExternalProvider__* unless this feed's section sets its own.
  sharedSource: true,
  answer: powerOutageAnswer,
  store: outageStore,
  detect: (items, stored, { now, config }) => detectPowerOutageChanges(items, stored, { now, minOutageMinutes: config.PowerOutages.MinOutageMinutes }),
  map: (changes) => toNotificationEvents(changes),
});
