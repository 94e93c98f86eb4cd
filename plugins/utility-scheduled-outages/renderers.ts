import { defineRenderer, singleLine as one, type NotificationEvent, type SectionsConfig } from '#plugin-api';
import type { scheduledOutagesConfig } from './config.ts';
import type { DigestPayload, ScheduledOutageItem, UpdatedPayload } from './scheduled-types.ts';

export const SCHEDULED_OUTAGES_FEED_ID = 'utility.scheduled-outages';
type Config = SectionsConfig<typeof scheduledOutagesConfig>;

const sequenceIdOf = (event: NotificationEvent) => `so-${event.itemKey ?? event.sourceKey}`.replace(/[^-_A-Za-z0-9]/g, '_').slice(0, 64);
// Every value from the feed is kept to one line (`one`): it can never start a line, or a label, of its own.
const where = (item: ScheduledOutageItem) => one(item.areas.join(', ')) || one(item.feeder);
const itemLines = (item: ScheduledOutageItem) => [
  `Date: ${one(item.date)}, ${one(item.start)}–${one(item.end)}`,
  `Feeder: ${one(item.feeder)}`,
  `Areas: ${one(item.areas.join(', ')) || '—'}`,
  ...(item.reason ? [`Reason: ${one(item.reason)}`] : []),
];

/** Outages grouped by date, then by area, one line per outage. */
export function digestLines(outages: readonly ScheduledOutageItem[]): string[] {
  if (outages.length === 0) return ['No planned outages.'];
  const byDate = new Map<string, ScheduledOutageItem[]>();
  for (const outage of [...outages].sort((a, b) => `${a.date}${a.start}`.localeCompare(`${b.date}${b.start}`))) {
    const list = byDate.get(outage.date);
    if (list) list.push(outage);
    else byDate.set(outage.date, [outage]);
  }
  return [...byDate].flatMap(([date, list]) => [
    `${one(date)}:`,
    ...list.map((o) => `  ${one(o.areas.join(', ')) || '—'}: ${one(o.start)}–${one(o.end)} (feeder ${one(o.feeder)})`),
  ]);
}

const digest = (title: (p: DigestPayload) => string, tags: string[]) => (event: NotificationEvent) => {
  const payload = event.sourcePayload as DigestPayload;
  return { title: title(payload), body: digestLines(payload.outages).join('\n'), sequenceId: sequenceIdOf(event), tags, priority: 'Default' as const };
};

export const scheduledOutageRenderers = [
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['NewEntry'], (event) => {
    const item = event.sourcePayload as ScheduledOutageItem;
    return { title: `Planned outage ${item.date}: ${where(item)}`, body: itemLines(item).join('\n'), sequenceId: sequenceIdOf(event), tags: ['calendar'], priority: 'Default' };
  }),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['Updated'], (event) => {
    const { item, changes } = event.sourcePayload as UpdatedPayload;
    return {
      title: `Planned outage changed: ${where(item)}`,
      body: [...changes.map((c) => `${c.field}: ${one(c.from)} → ${one(c.to)}`), '', ...itemLines(item)].join('\n'),
      sequenceId: sequenceIdOf(event),
      tags: ['calendar', 'pencil2'],
      priority: 'Default',
    };
  }),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['Cancelled'], (event) => {
    const item = event.sourcePayload as ScheduledOutageItem;
    return { title: `Planned outage cancelled: ${where(item)}`, body: itemLines(item).join('\n'), sequenceId: sequenceIdOf(event), tags: ['calendar', 'x'], priority: 'Default' };
  }),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['DailyUpdate'], digest((p) => `Planned outages: ${p.period}`, ['calendar'])),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['WeeklyDigest'], digest((p) => `Planned outages, ${p.period}`, ['calendar', 'spiral_calendar'])),
  defineRenderer<Config>(SCHEDULED_OUTAGES_FEED_ID, ['DayBeforeReminder'], digest((p) => `Reminder: planned outages ${p.period}`, ['alarm_clock'])),
];
