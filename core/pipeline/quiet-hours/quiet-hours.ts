import { TZDate } from '@date-fns/tz';
import { wallClock, formatClockTime, type Translate } from '../../i18n/index.ts';
import { NOTIFICATION_PRIORITIES, type RenderedNotification } from '../../plugin-api/feed-types.ts';
import { singleLine } from '../../plugin-api/user-text.ts';

/**
 * Quiet hours (a subscriber's `preferences.quietHours`), pure: the clock,
 * the window and the held deliveries are inputs.
 *
 * Decisions:
 * - The window is local wall-clock time in its zone, `start` included and
 *   `end` excluded; a window whose start is after its end wraps midnight
 *   (22:00–06:30). Start and end are never equal (the API refuses it).
 * - Whether `now` is inside is read from the local time at `now`, so a
 *   clock change inside the window is just the time it shows.
 * - The end is the first instant after `now` at which the local clock
 *   shows `end` (in the fall-back hour, the first 02:30 of the two,
 *   whichever way the zone lies from UTC); when a spring-forward gap skips
 *   `end`, the window ends at the jump (02:30 skipped from 02:00: it ends
 *   when the clock jumps to 03:00). In a repeated hour the clock shows the
 *   window's times twice, and both count.
 * - Urgent deliveries (a type the feed marks urgent, an event that says
 *   it is) are never held.
 * - The catch-up holds one line per source item (its sequence id), in the
 *   order the items first came: the latest state's title, with the time of
 *   its first and of its last change when there were several. Its priority
 *   is the highest of those latest states.
 */
export interface QuietHours {
  /** `HH:MM`, local. */
  readonly start: string;
  readonly end: string;
  /** IANA zone of the two times. */
  readonly timeZone: string;
}

const minutesOf = (time: string) => {
  const [hour, minute] = time.split(':').map(Number);
  return hour * 60 + minute;
};

/** The local date and the minutes since its midnight, as the zone's wall clock shows them. */
function localParts(now: Date | number, timeZone: string): { date: string; minutes: number } {
  const clock = wallClock(now, timeZone);
  return { date: clock.date, minutes: clock.hour * 60 + clock.minute };
}

/** The local date after `date` (`yyyy-mm-dd`). */
function nextDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

const HOUR = 3_600_000;

/** The UTC offset of a zone at an instant, in minutes (east positive). */
const offsetAt = (instant: number, timeZone: string) => -new TZDate(instant, timeZone).getTimezoneOffset();

/** Whether the local clock at `instant` shows `date` at `minutes` or later. */
function atOrPast(instant: number, timeZone: string, date: string, minutes: number): boolean {
  const local = localParts(new Date(instant), timeZone);
  return local.date > date || (local.date === date && local.minutes >= minutes);
}

/**
 * The first instant after `now` at which the local clock shows `time` on
 * `date`; when a clock change skips that time, the instant of the jump.
 */
function endInstant(date: string, time: string, timeZone: string, now: number): number {
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  const minutes = hour * 60 + minute;
  // The library's reading, and the same wall-clock time under the offsets before and after a change near it.
  const naive = new TZDate(year, month - 1, day, hour, minute, 0, timeZone).getTime();
  const shift = (offsetAt(naive + 12 * HOUR, timeZone) - offsetAt(naive - 12 * HOUR, timeZone)) * 60_000;
  const shows = (instant: number) => {
    const local = localParts(new Date(instant), timeZone);
    return local.date === date && local.minutes === minutes;
  };
  const exact = [naive - Math.abs(shift), naive, naive + Math.abs(shift)].filter((instant) => instant > now && shows(instant)).sort((a, b) => a - b);
  if (exact.length > 0) return exact[0];
  // Skipped by a gap: the clock jumps past it somewhere in the hours before the library's reading.
  let before = naive - 3 * HOUR;
  let after = naive;
  while (after - before > 1000) {
    const middle = Math.floor((before + after) / 2);
    if (atOrPast(middle, timeZone, date, minutes)) after = middle;
    else before = middle;
  }
  // Clocks change on a whole minute.
  const wholeMinute = Math.floor(after / 60_000) * 60_000;
  return atOrPast(wholeMinute, timeZone, date, minutes) ? wholeMinute : after;
}

/** When the quiet hours around `now` end, or null when `now` is outside them (or there are none). */
export function quietUntil(quiet: QuietHours | null | undefined, now: Date): Date | null {
  if (!quiet) return null;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return null;
  const local = localParts(now, quiet.timeZone);
  let endDate: string | null = null;
  if (start < end) {
    if (local.minutes >= start && local.minutes < end) endDate = local.date;
  } else if (local.minutes >= start) {
    endDate = nextDate(local.date);
  } else if (local.minutes < end) {
    endDate = local.date;
  }
  if (endDate === null) return null;
  const until = endInstant(endDate, quiet.end, quiet.timeZone, now.getTime());
  return until > now.getTime() ? new Date(until) : null;
}

/** Whether a delivery is held now, and until when (null: it goes at once, as an urgent one always does). */
export function holdUntil(urgent: boolean, quiet: QuietHours | null | undefined, now: Date): Date | null {
  if (urgent) return null;
  return quietUntil(quiet, now);
}

/** A delivery held by quiet hours, as its release sees it. */
export interface HeldDelivery {
  readonly ledgerId: number;
  /** When it was held (the ledger row's creation): the time of that change. */
  readonly heldAt: Date;
  readonly rendered: RenderedNotification;
}

/** How a catch-up is written: core's messages in the subscriber's language, times in their zone. */
export interface CatchUpWords {
  readonly t: Translate;
  /** An Intl locale (`si-LK`) for the times. */
  readonly intlLocale: string;
  readonly timeZone: string;
}

/** The one message a subscription gets for what its quiet hours held. */
export function catchUpMessage(held: readonly HeldDelivery[], words: CatchUpWords, sequenceId: string): RenderedNotification {
  const { t, timeZone } = words;
  const clock = (instant: Date) => formatClockTime(instant, timeZone, words.intlLocale);
  if (held.length === 0) throw new Error('a catch-up needs at least one held delivery');
  const items = new Map<string, HeldDelivery[]>();
  for (const delivery of [...held].sort((a, b) => a.heldAt.getTime() - b.heldAt.getTime() || a.ledgerId - b.ledgerId)) {
    const list = items.get(delivery.rendered.sequenceId);
    if (list) list.push(delivery);
    else items.set(delivery.rendered.sequenceId, [delivery]);
  }
  const lines: string[] = [];
  let priority = 0;
  for (const changes of items.values()) {
    const latest = changes.reduce((a, b) => (b.ledgerId > a.ledgerId ? b : a));
    const first = changes[0].heldAt;
    const last = changes.at(-1)!.heldAt;
    const title = singleLine(latest.rendered.title);
    lines.push(
      singleLine(
        changes.length === 1
          ? t('catchUp.once', { title, time: clock(first) })
          : t('catchUp.many', { title, count: changes.length, first: clock(first), last: clock(last) }),
      ),
    );
    priority = Math.max(priority, NOTIFICATION_PRIORITIES.indexOf(latest.rendered.priority));
  }
  return {
    title: singleLine(t('catchUp.title', { count: lines.length })),
    body: lines.join('\n'),
    sequenceId,
    tags: ['zzz'],
    priority: NOTIFICATION_PRIORITIES[priority] ?? 'Default',
  };
}
