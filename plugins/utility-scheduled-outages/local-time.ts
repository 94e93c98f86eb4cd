import { wallClock } from '#plugin-api';

/**
 * Wall-clock helpers for the scheduled-outages digests: local date and hour of
 * an instant in an IANA zone (the kit's wallClock, DST-safe), plain calendar
 * arithmetic on 'YYYY-MM-DD' strings, ISO-8601 week numbers, and detection of
 * the local hours a spring-forward gap skips. Pure: no clock, no I/O.
 */

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface LocalParts {
  /** Local calendar date, 'YYYY-MM-DD'. */
  date: string;
  /** Local wall-clock hour, 0..23. */
  hour: number;
  minute: number;
  second: number;
  weekday: Weekday;
}

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const knownZones = new Set<string>();

/** Whether Intl knows the zone ('UTC', 'Europe/London', ...). The empty string is not a zone. */
export function isValidTimeZone(timeZone: string): boolean {
  if (typeof timeZone !== 'string' || timeZone.trim() === '') return false;
  if (knownZones.has(timeZone)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    return false;
  }
  knownZones.add(timeZone);
  return true;
}

/** Throws a RangeError with a clear message when the zone is not valid. */
export function assertTimeZone(timeZone: string): void {
  if (!isValidTimeZone(timeZone)) {
    throw new RangeError(`Invalid IANA time zone "${String(timeZone)}" (expected a name such as "UTC", "Europe/London" or "Asia/Colombo")`);
  }
}

/** True for a real calendar date written 'YYYY-MM-DD'. */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [, y, m, d] = match;
  const utc = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return utc.getUTCFullYear() === Number(y) && utc.getUTCMonth() === Number(m) - 1 && utc.getUTCDate() === Number(d);
}

/** Midnight UTC of a 'YYYY-MM-DD' date, as epoch milliseconds (calendar arithmetic only, no zone). */
export function dateToUtcMs(date: string): number {
  if (!isIsoDate(date)) throw new RangeError(`Invalid date "${date}" (expected YYYY-MM-DD)`);
  const [, y, m, d] = ISO_DATE.exec(date) as RegExpExecArray;
  const ms = Date.UTC(Number(y), Number(m) - 1, Number(d));
  return ms;
}

function utcMsToDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The date n calendar days after (n < 0: before) the given date. */
export function addDays(date: string, days: number): string {
  if (!Number.isInteger(days)) throw new RangeError(`addDays needs a whole number of days, got ${days}`);
  return utcMsToDate(dateToUtcMs(date) + days * DAY_MS);
}

/** The weekday of a calendar date. */
export function weekdayOf(date: string): Weekday {
  const sundayFirst = new Date(dateToUtcMs(date)).getUTCDay();
  return WEEKDAYS[(sundayFirst + 6) % 7];
}

/** ISO-8601 week of a date: the week-numbering year and the week, as 'YYYY-Www' ('2027-01-01' → '2026-W53'). */
export function isoWeek(date: string): string {
  const ms = dateToUtcMs(date);
  const mondayFirst = (new Date(ms).getUTCDay() + 6) % 7;
  // The Thursday of the same Monday-to-Sunday week decides the week-numbering year.
  const thursday = new Date(ms + (3 - mondayFirst) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS));
  return `${String(year).padStart(4, '0')}-W${String(week).padStart(2, '0')}`;
}

/** Local date, hour, minute, second and weekday of an instant in a zone. */
export function localParts(now: Date, timeZone: string): LocalParts {
  const ms = now.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('localParts needs a valid Date');
  assertTimeZone(timeZone);
  const { date, hour, minute, second } = wallClock(ms, timeZone);
  return { date, hour, minute, second, weekday: weekdayOf(date) };
}

/**
 * The local hours of the current local date that a forward clock change
 * skipped just before the current local hour began. Empty on ordinary hours
 * and at a fall-back (the repeated hour is not a skip). Example: Europe/London
 * on 2026-03-29 at 02:10 BST (clocks went 01:00 GMT → 02:00 BST) gives [1].
 *
 * How: the instant just before the current wall-clock hour started (now minus
 * the local minutes and seconds, minus 1 ms) is read in the zone; every local
 * hour strictly between that hour and the current one, on the current date,
 * was skipped. When the previous instant is on the previous local date, the
 * skipped hours are those from 0 up to the current hour. (Hours skipped at the
 * end of the previous date belong to that date and are not reported.)
 */
export function skippedHoursBefore(now: Date, timeZone: string): number[] {
  const current = localParts(now, timeZone);
  const startOfHour = now.getTime() - (current.minute * 60 + current.second) * 1000 - now.getUTCMilliseconds();
  const previous = localParts(new Date(startOfHour - 1), timeZone);
  let firstSkipped: number;
  if (previous.date === current.date) firstSkipped = previous.hour + 1;
  else if (previous.date < current.date) firstSkipped = 0;
  else return []; // a fall-back across midnight: the previous instant was "later"; nothing skipped
  const skipped: number[] = [];
  for (let hour = firstSkipped; hour < current.hour; hour++) skipped.push(hour);
  return skipped;
}

/**
 * Whether the instant is "in" the configured local hour: its local hour is
 * that hour, or that hour did not exist today because a spring-forward gap
 * skipped it and the current hour is the first existing hour after the gap.
 * At a fall-back the repeated hour is in the hour both times (deterministic;
 * the caller's run record prevents a second digest).
 */
export function isInLocalHour(now: Date, timeZone: string, hour: number): boolean {
  const current = localParts(now, timeZone);
  if (current.hour === hour) return true;
  if (current.hour < hour) return false;
  return skippedHoursBefore(now, timeZone).includes(hour);
}

/**
 * Every local hour that occurs on a local date in the zone, ascending (23 or
 * fewer values on a spring-forward day). Scans the UTC instants that can fall
 * on that date in 15-minute steps (offsets span −12:00..+14:00 and may be
 * :30 or :45), so it is slow compared with the other helpers: for tests and
 * diagnostics, not for the poll loop.
 */
export function localHoursOn(date: string, timeZone: string): number[] {
  assertTimeZone(timeZone);
  const midnight = dateToUtcMs(date);
  const hours = new Set<number>();
  for (let ms = midnight - 15 * 3_600_000; ms <= midnight + DAY_MS + 13 * 3_600_000; ms += 15 * 60_000) {
    const parts = localParts(new Date(ms), timeZone);
    if (parts.date === date) hours.add(parts.hour);
  }
  return [...hours].sort((a, b) => a - b);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** 'Sunday 22 November 2026' (fixed English names, independent of the ICU data). */
export function longDateLabel(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return `${weekdayOf(date)} ${d} ${MONTHS[m - 1]} ${y}`;
}

/** '23–29 November 2026', '30 November – 6 December 2026', '28 December 2026 – 3 January 2027'. */
export function dateRangeLabel(from: string, to: string): string {
  const [fy, fm, fd] = from.split('-').map(Number);
  const [ty, tm, td] = to.split('-').map(Number);
  if (fy === ty && fm === tm) return `${fd}–${td} ${MONTHS[tm - 1]} ${ty}`;
  if (fy === ty) return `${fd} ${MONTHS[fm - 1]} – ${td} ${MONTHS[tm - 1]} ${ty}`;
  return `${fd} ${MONTHS[fm - 1]} ${fy} – ${td} ${MONTHS[tm - 1]} ${ty}`;
}
