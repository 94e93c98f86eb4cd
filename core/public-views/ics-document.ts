import { TZDate } from '@date-fns/tz';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import { ICalCalendar, ICalEventStatus } from 'ical-generator';
import type { FilterMatch } from '../plugin-api/feed-types.ts';
import { compileFilter, type SubscriptionFilter } from '../matching/index.ts';
import type { CalendarEntry, FeedCalendar } from '../plugin-api/public-views.ts';
import { icsText } from './ics-text.ts';

export interface CalendarDocumentOptions {
  /** Host name of PublicBaseUrl: UIDs are `<id>@<hostname>`. */
  readonly hostname: string;
  /** The calendar's name in calendar apps (X-WR-CALNAME). */
  readonly name: string;
  readonly filter: SubscriptionFilter;
  /** How the feed matches its own filter fields (`contains` for all when not given). */
  readonly matchOf?: (fieldId: string) => FilterMatch;
  /** Suggested refresh period for clients (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
  readonly refreshSeconds: number;
}

/** The entries a filter keeps, matched exactly as subscriptions match events (same compiled filter). */
function entriesMatching(entries: readonly CalendarEntry[], filter: SubscriptionFilter, matchOf?: (fieldId: string) => FilterMatch): CalendarEntry[] {
  const matches = compileFilter(filter, matchOf);
  return entries.filter((entry) => matches({ feedId: '', eventType: '', sourceKey: entry.id, fields: entry.fields, sourcePayload: null }));
}

/**
 * An RFC 5545 calendar, one VEVENT per entry. ical-generator writes the
 * escaping, line folding and CRLF; @touch4it/ical-timezones the VTIMEZONE of
 * the feed's zone. Times are TZDates, so they come out as wall-clock times of
 * that zone whatever the host's own zone. Every text property is escaped
 * and kept on its line (the library escapes SUMMARY, LOCATION and
 * DESCRIPTION; icsText the rest). The output depends only on the
 * input (stamps are the entries' change times, not "now"), so equal
 * calendars give equal bytes and equal ETags.
 */
export function renderCalendar(calendar: FeedCalendar, options: CalendarDocumentOptions): string {
  const utc = calendar.timeZone === 'UTC';
  const ics = new ICalCalendar({
    prodId: { company: options.hostname, product: 'notification-pipeline', language: 'EN' },
    // The library writes NAME and X-WR-CALNAME as given: escaped here (a display name may hold anything).
    name: icsText(options.name),
    ttl: options.refreshSeconds,
  });
  // A nameless calendar zone keeps DTSTAMP and LAST-MODIFIED in UTC (RFC 5545 requires it) while events carry their TZID.
  if (!utc) ics.timezone({ name: null, generator: getVtimezoneComponent });
  for (const entry of entriesMatching(calendar.entries, options.filter, options.matchOf)) {
    ics.createEvent({
      // UID is written as given too: a feed's id, escaped and kept on one line.
      id: icsText(`${entry.id}@${options.hostname}`),
      sequence: entry.sequence,
      stamp: entry.lastModified,
      lastModified: entry.lastModified,
      start: new TZDate(entry.start.getTime(), calendar.timeZone),
      end: new TZDate(entry.end.getTime(), calendar.timeZone),
      timezone: utc ? null : calendar.timeZone,
      summary: entry.summary,
      location: entry.location,
      description: entry.description,
      status: entry.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  // RFC 5545 ends every content line with CRLF, the last one too; ical-generator leaves the last one open.
  return `${ics.toString()}\r\n`;
}
