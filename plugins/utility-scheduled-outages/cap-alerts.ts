import type { CapContent, CapProfile, FeedAlertView, SectionsConfig, StoredNotificationEvent } from '#plugin-api';
import { outageInstants } from './calendar-view.ts';
import type { scheduledOutagesConfig } from './config.ts';
import type { DigestPayload, ScheduledOutageItem, UpdatedPayload } from './scheduled-types.ts';

type Config = SectionsConfig<typeof scheduledOutagesConfig>;

const planned = { event: 'Planned power outage', severity: 'Minor', certainty: 'Likely' } as const;
const digest: CapProfile = { msgType: 'Alert', event: 'Planned power outages', urgency: 'Future', severity: 'Minor', certainty: 'Likely' };

/**
 * CAP 1.2 per event type (the table in docs/api.md). A planned outage is a
 * minor, likely, future event; its change updates, and its cancellation
 * cancels, the earlier alerts of the same outage. Digests and reminders
 * are summaries: new alerts of their own, referencing nothing.
 */
export const SCHEDULED_OUTAGE_CAP_PROFILES: Readonly<Record<string, CapProfile>> = {
  NewEntry: { msgType: 'Alert', urgency: 'Future', ...planned },
  Updated: { msgType: 'Update', urgency: 'Future', ...planned },
  Cancelled: { msgType: 'Cancel', urgency: 'Past', ...planned, certainty: 'Unlikely' },
  DailyUpdate: digest,
  WeeklyDigest: digest,
  DayBeforeReminder: digest,
};

const SUMMARIES = new Set(['DailyUpdate', 'WeeklyDigest', 'DayBeforeReminder']);

const itemOf = (event: StoredNotificationEvent): ScheduledOutageItem =>
  event.eventType === 'Updated' ? (event.sourcePayload as UpdatedPayload).item : (event.sourcePayload as ScheduledOutageItem);

/** Pure: headline and description are the rendered message; onset and expires the outage's times in ScheduledOutages__TimeZone. */
export function scheduledOutageCapContent(event: StoredNotificationEvent, config: Config): CapContent {
  const text = { headline: event.rendered.title, description: event.rendered.body };
  if (SUMMARIES.has(event.eventType)) {
    const areas = [...new Set((event.sourcePayload as DigestPayload).outages.flatMap((outage) => outage.areas))].sort();
    return { ...text, areas };
  }
  const item = itemOf(event);
  const { start, end } = outageInstants(item, config.ScheduledOutages.TimeZone);
  return { ...text, areas: item.areas, onset: start, expires: end };
}

export const scheduledOutageAlerts: FeedAlertView<Config> = {
  profiles: SCHEDULED_OUTAGE_CAP_PROFILES,
  content: (event, { config }) => scheduledOutageCapContent(event, config),
};
