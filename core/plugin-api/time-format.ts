import { TZDate } from '@date-fns/tz';

/**
 * Times as people read them, in a feed's zone (or a subscriber's), with the
 * zone named: every message, page and calendar writes them so, never bare
 * UTC. Pure: the instant and the zone are inputs. `locale` picks the words
 * (month names, order); times are 24-hour in every locale.
 */

const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}\u0000${timeZone}\u0000${JSON.stringify(options)}`;
  let found = cache.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, { timeZone, hourCycle: 'h23', ...options });
    if (cache.size < 500) cache.set(key, found);
  }
  return found;
}

const asDate = (instant: Date | string) => (typeof instant === 'string' ? new Date(instant) : instant);
/**
 * The zone's name as English readers know it (`GMT+5:30`, `BST`); in other
 * languages its offset (`GMT+5:30`), since a short name there may mislead
 * (Tamil names Colombo's zone "IST", read as India's).
 */
const zoneStyle = (locale: string): Intl.DateTimeFormatOptions['timeZoneName'] => (locale.startsWith('en') ? 'short' : 'shortOffset');
const valid = (date: Date) => !Number.isNaN(date.getTime());

/** `22 Nov 2026, 08:15 GMT+5:30`; text that is no date comes back as it was. */
export function formatDateTime(instant: Date | string, timeZone: string, locale = 'en-GB'): string {
  const date = asDate(instant);
  if (!valid(date)) return String(instant);
  return formatter(locale, timeZone, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: zoneStyle(locale),
  }).format(date);
}

/** `08:15 GMT+5:30`. */
export function formatClockTime(instant: Date | string, timeZone: string, locale = 'en-GB'): string {
  const date = asDate(instant);
  if (!valid(date)) return String(instant);
  return formatter(locale, timeZone, { hour: '2-digit', minute: '2-digit', timeZoneName: zoneStyle(locale) }).format(date);
}

/** `GMT+5:30`, `UTC`, `CET`: the zone's short name at that instant (it changes with daylight saving). */
export function zoneName(instant: Date | string, timeZone: string, locale = 'en-GB'): string {
  const date = asDate(instant);
  const parts = formatter(locale, timeZone, { timeZoneName: zoneStyle(locale) }).formatToParts(valid(date) ? date : new Date(0));
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}

/** `Tue, 24 Nov 2026`: a local calendar date (`yyyy-mm-dd`), no zone needed. */
export function formatLocalDate(date: string, locale = 'en-GB'): string {
  const [year, month, day] = date.split('-').map(Number);
  const noon = new Date(Date.UTC(year, month - 1, day, 12));
  if (!valid(noon)) return date;
  return formatter(locale, 'UTC', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(noon);
}

/** The instant a local wall-clock time (`yyyy-mm-dd`, `HH:MM`) has in a zone; a time a clock change skips moves forward. */
export function localInstant(date: string, time: string, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  return new Date(new TZDate(year, month - 1, day, hour, minute, 0, timeZone).getTime());
}

/** An instant's wall clock in a zone: the local date (`yyyy-mm-dd`) and time. */
export interface WallClock {
  readonly date: string;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * What a wall clock in `timeZone` shows at an instant (DST-safe, by
 * @date-fns/tz, as `localInstant` is its inverse). The one way the service
 * reads local time: quiet hours, digest hours, local dates. Pure.
 */
export function wallClock(instant: Date | number, timeZone: string): WallClock {
  const local = new TZDate(typeof instant === 'number' ? instant : instant.getTime(), timeZone);
  if (Number.isNaN(local.getTime()) || Number.isNaN(local.getHours())) throw new RangeError(`no wall clock for ${String(instant)} in "${timeZone}"`);
  return {
    date: `${pad(local.getFullYear(), 4)}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`,
    hour: local.getHours(),
    minute: local.getMinutes(),
    second: local.getSeconds(),
  };
}
