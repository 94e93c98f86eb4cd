import { defineRenderer, formatLocalDate, localInstant, type NotificationEvent, type SectionsConfig, sequenceId, singleLine as one, zoneName } from '#plugin-api';
import type { scheduledOutagesConfig } from './config.ts';
import type { DigestPayload, ScheduledOutageItem, UpdatedPayload } from './scheduled-types.ts';

export const SCHEDULED_OUTAGES_FEED_ID = 'utility.scheduled-outages';
type Config = SectionsConfig<typeof scheduledOutagesConfig>;

const sequenceIdOf = (event: NotificationEvent) => sequenceId('so', event.itemKey ?? event.sourceKey);
// Every value from the feed is kept to one line (`one`): it can never start a line, or a label, of its own.
const where = (item: ScheduledOutageItem) => one(item.areas.join(', ')) || one(item.feeder);
/** `09:00–17:00 GMT+5:30`: the local times of the feed's zone, and the zone, named as it is on that date. */
const hours = (item: Pick<ScheduledOutageItem, 'date' | 'start' | 'end'>, zone: string) =>
  `${one(item.start)}–${one(item.end)} ${zoneName(localInstant(item.date, item.start, zone), zone)}`;
const itemLines = (item: ScheduledOutageItem, zone: string) => [
  `Date: ${formatLocalDate(item.date)}, ${hours(item, zone)}`,
  `Feeder: ${one(item.feeder)}`,
  `Areas: ${one(item.areas.join(', ')) || '—'}`,
  ...(item.reason ? [`Reason: ${one(item.reason)}`] : []),
];

/** Outages grouped by date, then by area, one line per outage, times in the feed's zone. */
export function digestLines(outages: readonly ScheduledOutageItem[], zone: string): string[] {
  if (outages.length === 0) return ['No planned outages.'];
  const byDate = new Map<string, ScheduledOutageItem[]>();
  for (const outage of [...outages].sort((a, b) => `${a.date}${a.start}`.localeCompare(`${b.date}${b.start}`))) {
    const list = byDate.get(outage.date);
    if (list) list.push(outage);
    else byDate.set(outage.date, [outage]);
  }
  return [...byDate].flatMap(([date, list]) => [
    `${formatLocalDate(date)}:`,
    ...list.map((o) => `  ${one(o.areas.join(', ')) || '—'}: ${hours(o, zone)} (feeder ${one(o.feeder)})`),
  ]);
}

const digest = (title: (p: DigestPayload) => string, tags: string[]) => (event: NotificationEvent, { config }: { config: Config }) => {
  const payload = event.sourcePayload as DigestPayload;
  return { title: title(payload), body: digestLines(payload.outages, config.ScheduledOutages.TimeZone).join('\n'), sequenceId: sequenceIdOf(event), tags, priority: 'Default' as const };
};

export const scheduledOutageRenderers = [
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['NewEntry'], (event, { config }) => {
    const item = event.sourcePayload as ScheduledOutageItem;
    const zone = config.ScheduledOutages.TimeZone;
    return { title: `Planned outage ${formatLocalDate(item.date)}: ${where(item)}`, body: itemLines(item, zone).join('\n'), sequenceId: sequenceIdOf(event), tags: ['calendar'], priority: 'Default' };
  }),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['Updated'], (event, { config }) => {
    const { item, changes } = event.sourcePayload as UpdatedPayload;
    return {
      title: `Planned outage changed: ${where(item)}`,
      body: [...changes.map((c) => `${c.field}: ${one(c.from)} → ${one(c.to)}`), '', ...itemLines(item, config.ScheduledOutages.TimeZone)].join('\n'),
      sequenceId: sequenceIdOf(event),
      tags: ['calendar', 'pencil2'],
      priority: 'Default',
    };
  }),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['Cancelled'], (event, { config }) => {
    const item = event.sourcePayload as ScheduledOutageItem;
    return { title: `Planned outage cancelled: ${where(item)}`, body: itemLines(item, config.ScheduledOutages.TimeZone).join('\n'), sequenceId: sequenceIdOf(event), tags: ['calendar', 'x'], priority: 'Default' };
  }),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['DailyUpdate'], digest((p) => `Planned outages: ${p.period}`, ['calendar'])),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['WeeklyDigest'], digest((p) => `Planned outages, ${p.period}`, ['calendar', 'spiral_calendar'])),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['DayBeforeReminder'], digest((p) => `Reminder: planned outages ${p.period}`, ['alarm_clock'])),
];
