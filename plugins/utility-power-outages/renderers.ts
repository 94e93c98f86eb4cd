import { defineRenderer, formatDateTime, type NotificationEvent, type SectionsConfig, sequenceId, singleLine as one } from '#plugin-api';
import type { powerOutagesConfig } from './config.ts';
import type { AnnouncementPayload, PowerOutageItem } from './outage-types.ts';

export const POWER_OUTAGES_FEED_ID = 'utility.power-outages';
type Config = SectionsConfig<typeof powerOutagesConfig>;

const formatTime = (iso: string, zone: string) => formatDateTime(iso, zone);

// Every value from the feed is kept to one line (`one`): it can never start a line, or a label, of its own.
const outageLines = (item: PowerOutageItem) => [`Feeder: ${one(item.feeder)}`, `Areas: ${one(item.areas.join(', ')) || '—'}`];
const placeOf = (item: PowerOutageItem) => one(item.areas.join(', ')) || one(item.feeder);
const sequenceIdOf = (event: NotificationEvent) => sequenceId('po', event.itemKey ?? event.sourceKey);

/** The lines of an ongoing outage: where, since when, the estimate when `estimateLine` gives one, the cause. */
function ongoingBody(item: PowerOutageItem, zone: string, estimateLine: string[]): string {
  return [...outageLines(item), `Since: ${formatTime(item.timeOff, zone)}`, ...estimateLine, ...(item.cause ? [`Cause: ${one(item.cause)}`] : [])].join('\n');
}

export const powerOutageRenderers = [
  defineRenderer<Config>(POWER_OUTAGES_FEED_ID, ['NewOutage'], (event, { config }) => {
    const item = event.sourcePayload as PowerOutageItem;
    const zone = config.PowerOutages.TimeZone;
    const estimate = item.estimatedRestoration ? [`Estimated restoration: ${formatTime(item.estimatedRestoration, zone)}`] : [];
    return {
      title: `Power outage: ${placeOf(item)}`,
      body: ongoingBody(item, zone, estimate),
      sequenceId: sequenceIdOf(event),
      tags: ['warning', 'electric_plug'],
      priority: 'High',
    };
  }),
  // Replaces the outage's notice on the phone (same sequence id), so it says everything the NewOutage said.
  defineRenderer<Config>(POWER_OUTAGES_FEED_ID, ['EstimateUpdated'], (event, { config }) => {
    const item = event.sourcePayload as PowerOutageItem;
    const zone = config.PowerOutages.TimeZone;
    const estimate = item.estimatedRestoration
      ? `Estimated restoration: ${formatTime(item.estimatedRestoration, zone)}`
      : 'Estimated restoration: none at the moment (the earlier estimate no longer holds)';
    return {
      title: `${item.estimatedRestoration ? 'Power outage, new estimate' : 'Power outage, estimate withdrawn'}: ${placeOf(item)}`,
      body: ongoingBody(item, zone, [estimate]),
      sequenceId: sequenceIdOf(event),
      tags: ['hourglass_flowing_sand', 'electric_plug'],
      priority: 'Default',
    };
  }),
  defineRenderer<Config>(POWER_OUTAGES_FEED_ID, ['Restoration', 'RestoredAnnouncement'], (event, { config }) => {
    const item = event.sourcePayload as PowerOutageItem;
    const zone = config.PowerOutages.TimeZone;
    return {
      title: `Power restored: ${placeOf(item)}`,
      body: [
        ...outageLines(item),
        `Off: ${formatTime(item.timeOff, zone)}`,
        `Restored: ${item.timeRestored ? formatTime(item.timeRestored, zone) : 'unknown'}`,
      ].join('\n'),
      sequenceId: sequenceIdOf(event),
      tags: ['white_check_mark', 'electric_plug'],
      priority: 'Default',
    };
  }),
  defineRenderer<Config>(POWER_OUTAGES_FEED_ID, ['ManualAnnouncement'], (event) => {
    const payload = event.sourcePayload as AnnouncementPayload;
    const scope = [
      ...(payload.areas.length ? [`Areas: ${one(payload.areas.join(', '))}`] : []),
      ...(payload.feeders.length ? [`Feeders: ${one(payload.feeders.join(', '))}`] : []),
    ];
    return {
      title: one(payload.title),
      body: [payload.message, ...scope].join('\n'),
      sequenceId: sequenceIdOf(event),
      tags: ['loudspeaker'],
      priority: 'High',
    };
  }),
];
