import {
  createTranslator,
  defineRenderer,
  formatDateTime,
  intlLocale,
  loadMessages,
  type NotificationEvent,
  type RenderContext,
  type SectionsConfig,
  sequenceId,
  singleLine as one,
  type Translate,
} from '#plugin-api';
import type { powerOutagesConfig } from './config.ts';
import type { AnnouncementPayload, PowerOutageItem } from './outage-types.ts';

export const POWER_OUTAGES_FEED_ID = 'utility.power-outages';
type Config = SectionsConfig<typeof powerOutagesConfig>;

/** The plugin's own messages (locales/), for a context that brings none (a renderer called outside core). */
export const ownMessages = loadMessages(new URL('./locales/', import.meta.url));

/** What a renderer writes with: the messages and the times in the subscriber's language, in their zone (else the feed's). */
function writer({ config, locale, timeZone, t }: RenderContext<Config>): { t: Translate; time: (iso: string) => string } {
  const zone = timeZone ?? config.PowerOutages.TimeZone;
  return { t: t ?? createTranslator(ownMessages, locale), time: (iso) => formatDateTime(iso, zone, intlLocale(locale)) };
}

// Every value from the feed is kept to one line (`one`): it can never start a line, or a label, of its own.
const outageLines = (t: Translate, item: PowerOutageItem) => [
  t('line.feeder', { feeder: one(item.feeder) }),
  t('line.areas', { areas: one(item.areas.join(', ')) || '—' }),
];
const placeOf = (item: PowerOutageItem) => one(item.areas.join(', ')) || one(item.feeder);
const sequenceIdOf = (event: NotificationEvent) => sequenceId('po', event.itemKey ?? event.sourceKey);
/** The subscriber never got this outage's first news (its message still waited when this one came, and was replaced by it). */
const missedTheOutage = (context: RenderContext<Config>) => (context.missed ?? []).some((missed) => missed.eventType === 'NewOutage');

/** The lines of an ongoing outage: where, since when, the estimate when `estimateLine` gives one, the cause. */
function ongoingBody(t: Translate, time: (iso: string) => string, item: PowerOutageItem, estimateLine: string[]): string {
  return [
    ...outageLines(t, item),
    t('line.since', { time: time(item.timeOff) }),
    ...estimateLine,
    ...(item.cause ? [t('line.cause', { cause: one(item.cause) })] : []),
  ].join('\n');
}

export const powerOutageRenderers = [
  defineRenderer<Config>(POWER_OUTAGES_FEED_ID, ['NewOutage'], (event, context) => {
    const item = event.sourcePayload as PowerOutageItem;
    const { t, time } = writer(context);
    const estimate = item.estimatedRestoration ? [t('line.estimate', { time: time(item.estimatedRestoration) })] : [];
    return {
      title: t('title.newOutage', { place: placeOf(item) }),
      body: ongoingBody(t, time, item, estimate),
      sequenceId: sequenceIdOf(event),
      tags: ['warning', 'electric_plug'],
      priority: 'High',
    };
  }),
  // Replaces the outage's notice on the phone (same sequence id), so it says everything the NewOutage said;
  // to a subscriber whose NewOutage it replaced before it went out, it is the news of the outage.
  defineRenderer<Config>(POWER_OUTAGES_FEED_ID, ['EstimateUpdated'], (event, context) => {
    const item = event.sourcePayload as PowerOutageItem;
    const { t, time } = writer(context);
    const estimate = item.estimatedRestoration ? t('line.estimate', { time: time(item.estimatedRestoration) }) : t('line.noEstimate');
    const first = missedTheOutage(context);
    return {
      title: t(first ? 'title.newOutage' : item.estimatedRestoration ? 'title.newEstimate' : 'title.estimateWithdrawn', { place: placeOf(item) }),
      body: ongoingBody(t, time, item, [estimate]),
      sequenceId: sequenceIdOf(event),
      tags: first ? ['warning', 'electric_plug'] : ['hourglass_flowing_sand', 'electric_plug'],
      priority: first ? 'High' : 'Default',
    };
  }),
  defineRenderer<Config>(POWER_OUTAGES_FEED_ID, ['Restoration', 'RestoredAnnouncement'], (event, context) => {
    const item = event.sourcePayload as PowerOutageItem;
    const { t, time } = writer(context);
    return {
      title: t('title.restored', { place: placeOf(item) }),
      body: [
        // Its NewOutage never went out (this replaced it while it waited): say that there was an outage, and when it began.
        ...(missedTheOutage(context) ? [t('line.missedOutage', { time: time(item.timeOff) })] : []),
        ...outageLines(t, item),
        t('line.off', { time: time(item.timeOff) }),
        item.timeRestored ? t('line.restored', { time: time(item.timeRestored) }) : t('line.restoredUnknown'),
      ].join('\n'),
      sequenceId: sequenceIdOf(event),
      tags: ['white_check_mark', 'electric_plug'],
      priority: 'Default',
    };
  }),
  // The operator's own words, as written: only the scope around them is translated.
  defineRenderer<Config>(POWER_OUTAGES_FEED_ID, ['ManualAnnouncement'], (event, context) => {
    const payload = event.sourcePayload as AnnouncementPayload;
    const { t } = writer(context);
    const scope = [
      ...(payload.areas.length ? [t('line.areas', { areas: one(payload.areas.join(', ')) })] : []),
      ...(payload.feeders.length ? [t('line.feeders', { feeders: one(payload.feeders.join(', ')) })] : []),
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
