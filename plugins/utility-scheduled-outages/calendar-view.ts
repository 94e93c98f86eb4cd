import { localInstant, type CalendarEntry, type FeedCalendar, type FeedCalendarView, type SectionsConfig } from '#plugin-api';
import { loadCalendarRows, type CalendarRow } from './calendar-store.ts';
import type { scheduledOutagesConfig } from './config.ts';
import { fieldsOf } from './event-mapper.ts';
import { addDays, localParts } from './local-time.ts';
import type { ScheduledOutageItem } from './scheduled-types.ts';

type Config = SectionsConfig<typeof scheduledOutagesConfig>;

/** Days a cancelled outage stays in the calendar (as STATUS:CANCELLED), so subscribed calendars drop it. */
export const CANCELLED_KEPT_DAYS = 7;

/** Start and end of an outage; an end at or before the start is on the next day (an overnight outage). */
export function outageInstants(item: Pick<ScheduledOutageItem, 'date' | 'start' | 'end'>, timeZone: string): { start: Date; end: Date } {
  const overnight = item.end <= item.start;
  return { start: localInstant(item.date, item.start, timeZone), end: localInstant(overnight ? addDays(item.date, 1) : item.date, item.end, timeZone) };
}

export interface CalendarWindow {
  /** The local date: outages dated today or later are listed. */
  today: string;
  /** Cancelled outages stay listed when cancelled at or after this instant (local midnight, CANCELLED_KEPT_DAYS ago). */
  cancelledSince: Date;
  /** The window moves at local midnight: the calendar may change then with no poll. */
  windowStart: Date;
}

/** Pure: what the calendar covers at `now` in the feed's zone. Whole local days, so it changes only at midnight. */
export function calendarWindow(now: Date, timeZone: string): CalendarWindow {
  const today = localParts(now, timeZone).date;
  return {
    today,
    cancelledSince: localInstant(addDays(today, -CANCELLED_KEPT_DAYS), '00:00', timeZone),
    windowStart: localInstant(today, '00:00', timeZone),
  };
}

const where = (item: ScheduledOutageItem) => item.areas.join(', ') || `feeder ${item.feeder}`;

/** Pure: one stored outage as a calendar entry. */
export function toCalendarEntry(row: CalendarRow, timeZone: string): CalendarEntry {
  const cancelled = row.status === 'cancelled';
  return {
    id: row.id,
    ...outageInstants(row, timeZone),
    summary: `${cancelled ? 'Cancelled: ' : ''}Planned power outage: ${where(row)}`,
    location: where(row),
    description: [...(cancelled ? ['The utility cancelled this planned outage.'] : []), `Reason: ${row.reason || 'not given'}`, `Feeder: ${row.feeder}`].join(
      '\n',
    ),
    sequence: row.sequence,
    cancelled,
    lastModified: row.changedAt,
    fields: fieldsOf(row),
  };
}

/** The calendar of planned outages, in ScheduledOutages__TimeZone. */
export const scheduledOutageCalendar: FeedCalendarView<Config> = {
  async load({ db, now, config }): Promise<FeedCalendar> {
    const timeZone = config.ScheduledOutages.TimeZone;
    const window = calendarWindow(now, timeZone);
    const { rows, lastPollChange } = await loadCalendarRows(db, window.today, window.cancelledSince);
    const changes = [window.windowStart, ...(lastPollChange ? [lastPollChange] : []), ...rows.map((row) => row.changedAt)];
    return {
      timeZone,
      entries: rows.map((row) => toCalendarEntry(row, timeZone)),
      lastModified: new Date(Math.max(...changes.map((date) => date.getTime()))),
    };
  },
};
