/**
 * The digest and reminder gating policy of the scheduled-outages feed
 * (digest gating), pure: the clock, the
 * schedule, the stored outages and the recorded runs are inputs, the due
 * digests are the output. The caller turns each DueDigest into a
 * NotificationEvent and records its run (runKey) only when the pipeline
 * reports WasSystemDelivery.
 *
 * Decisions:
 * - "In the hour": the local wall-clock hour (ScheduledOutages__TimeZone)
 *   equals the configured hour. No catch-up: a poll that misses the whole
 *   hour misses that period's digest.
 * - Spring forward: when a forward clock change skips the configured hour
 *   (Europe/London, 2026-03-29, hour 1), the digest is due in the first
 *   existing local hour after the gap (02:00–02:59 BST), on the same local
 *   date. A configured hour skipped by a gap that runs past midnight is not
 *   caught up on the next date (no such zone rule is known).
 * - Fall back: the repeated hour (Europe/London, 2026-10-25, 01:00–01:59 twice)
 *   is "in the hour" both times; the policy is a function of its inputs, so
 *   the second occurrence gives the same digest again unless the first one's
 *   run was recorded — which is what the run gate is for. Even if it is not
 *   recorded, the same SourceKey lets the delivery ledger drop duplicates.
 * - DailyUpdate lists the scheduled outages of the local date D and the six
 *   days after it (D..D+6, DAILY_HORIZON_DAYS = 7), so the daily message stays
 *   short while still showing what is coming.
 * - WeeklyDigest is due on WeeklyDigestDay; its period (run key and SourceKey)
 *   is the ISO week of D; it lists the week ahead from the digest day, D..D+6
 *   (exactly the ISO week when the day is Monday, the default).
 * - DayBeforeReminder: one per outage date D+1 that has at least one
 *   scheduled outage and no recorded reminder run.
 * - Empty periods: DailyUpdate and WeeklyDigest ARE created with an empty
 *   list. System subscribers (empty filter) then learn "no planned outages"
 *   at a predictable time, and the run gets recorded so the period is closed.
 *   Their Fields feeders/areas are empty, so a subscription filtered by
 *   feeder or location does not match and is not told about nothing.
 *   Reminders exist only for dates with outages.
 * - Cancelled outages, and outages whose date is not a valid 'YYYY-MM-DD', are
 *   never listed. Listed outages are sorted by date, start, feeder, id.
 * - Fields: `feeders` and `areas` are the distinct, trimmed, non-empty
 *   feeders and areas of the listed outages, sorted, joined with ', '.
 */
import { WEEKDAYS, addDays, assertTimeZone, dateRangeLabel, isInLocalHour, isIsoDate, isoWeek, localParts, longDateLabel, type Weekday } from './local-time.ts';
import type { DigestPayload, ScheduledOutageItem } from './scheduled-types.ts';

export type DigestKind = 'DailyUpdate' | 'WeeklyDigest' | 'DayBeforeReminder';

/** Days listed by a DailyUpdate: the local date and the six after it. */
export const DAILY_HORIZON_DAYS = 7;
/** Days listed by a WeeklyDigest: the digest day and the six after it. */
export const WEEKLY_HORIZON_DAYS = 7;

export interface DigestSchedule {
  /** IANA zone of the hours below. */
  timeZone: string;
  dailyDigestHour: number;
  weeklyDigestDay: Weekday;
  weeklyDigestHour: number;
  reminderHour: number;
}

export interface DueDigest {
  kind: DigestKind;
  /** `daily-<yyyy-mm-dd>`, `weekly-<yyyy-Www>` or `reminder-<outage date>`. */
  sourceKey: string;
  /** The gated period: the local date (daily), 'YYYY-Www' (weekly) or the outage date (reminder). */
  period: string;
  /** The key to record once delivered to the system subscription: runKey(kind, period). */
  runKey: string;
  /** Human label of the period: 'Sunday 22 November 2026', 'week 48 (23–29 November 2026)', 'tomorrow, Tuesday 24 November 2026'. */
  label: string;
  /** First and last date listed (inclusive). */
  from: string;
  to: string;
  outages: ScheduledOutageItem[];
  /** Event Fields so filtered subscriptions match. */
  fields: { feeders: string; areas: string };
}

/** The recorded-run key of a period, for example 'DailyUpdate:2026-11-22', 'WeeklyDigest:2026-W48', 'DayBeforeReminder:2026-11-24'. */
export function runKey(kind: DigestKind, period: string): string {
  return `${kind}:${period}`;
}

const SOURCE_KEY_PREFIX: Readonly<Record<DigestKind, string>> = {
  DailyUpdate: 'daily',
  WeeklyDigest: 'weekly',
  DayBeforeReminder: 'reminder',
};

/** The SourceKey of a period. */
export function digestSourceKey(kind: DigestKind, period: string): string {
  return `${SOURCE_KEY_PREFIX[kind]}-${period}`;
}

/** The structural shape of the ScheduledOutages config section this policy needs. */
export interface ScheduledOutagesScheduleConfig {
  TimeZone: string;
  DailyDigestHour: number;
  WeeklyDigestDay: string;
  WeeklyDigestHour: number;
  ReminderHour: number;
}

/** Builds (and validates) the schedule from the ScheduledOutages config section. */
export function digestScheduleFromConfig(section: ScheduledOutagesScheduleConfig): DigestSchedule {
  const schedule: DigestSchedule = {
    timeZone: section.TimeZone,
    dailyDigestHour: section.DailyDigestHour,
    weeklyDigestDay: section.WeeklyDigestDay as Weekday,
    weeklyDigestHour: section.WeeklyDigestHour,
    reminderHour: section.ReminderHour,
  };
  assertDigestSchedule(schedule);
  return schedule;
}

/** Throws a RangeError naming the first invalid setting. */
export function assertDigestSchedule(schedule: DigestSchedule): void {
  assertTimeZone(schedule.timeZone);
  for (const [name, hour] of [
    ['dailyDigestHour', schedule.dailyDigestHour],
    ['weeklyDigestHour', schedule.weeklyDigestHour],
    ['reminderHour', schedule.reminderHour],
  ] as const) {
    if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new RangeError(`${name} must be an integer hour 0..23, got ${hour}`);
  }
  if (!(WEEKDAYS as readonly string[]).includes(schedule.weeklyDigestDay)) {
    throw new RangeError(`weeklyDigestDay must be one of ${WEEKDAYS.join(', ')}, got "${schedule.weeklyDigestDay}"`);
  }
}

const compareOutages = (a: ScheduledOutageItem, b: ScheduledOutageItem) =>
  compareText(a.date, b.date) || compareText(a.start, b.start) || compareText(a.feeder, b.feeder) || compareText(a.id, b.id);

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const distinctSorted = (values: Iterable<string>) => [...new Set([...values].map((value) => value.trim()).filter((value) => value !== ''))].sort(compareText);

/** Fields of a digest or reminder: the distinct feeders and areas of the outages it lists. */
export function digestFields(outages: readonly ScheduledOutageItem[]): { feeders: string; areas: string } {
  return {
    feeders: distinctSorted(outages.map((outage) => outage.feeder)).join(', '),
    areas: distinctSorted(outages.flatMap((outage) => outage.areas)).join(', '),
  };
}

/** Scheduled (not cancelled) outages dated from..to inclusive, sorted. */
export function outagesBetween(outages: readonly ScheduledOutageItem[], from: string, to: string): ScheduledOutageItem[] {
  return outages.filter((outage) => outage.status === 'scheduled' && isIsoDate(outage.date) && outage.date >= from && outage.date <= to).sort(compareOutages);
}

function due(kind: DigestKind, period: string, label: string, from: string, to: string, outages: ScheduledOutageItem[]): DueDigest {
  return { kind, sourceKey: digestSourceKey(kind, period), period, runKey: runKey(kind, period), label, from, to, outages, fields: digestFields(outages) };
}

/**
 * The digests and reminders due at `now`, in the order DailyUpdate,
 * WeeklyDigest, DayBeforeReminder. `recordedRuns` holds runKey values of
 * periods already delivered to the system subscription.
 */
export function dueDigests(now: Date, schedule: DigestSchedule, outages: readonly ScheduledOutageItem[], recordedRuns: ReadonlySet<string>): DueDigest[] {
  assertDigestSchedule(schedule);
  const { timeZone } = schedule;
  const local = localParts(now, timeZone);
  const today = local.date;
  const result: DueDigest[] = [];

  if (!recordedRuns.has(runKey('DailyUpdate', today)) && isInLocalHour(now, timeZone, schedule.dailyDigestHour)) {
    const to = addDays(today, DAILY_HORIZON_DAYS - 1);
    result.push(due('DailyUpdate', today, longDateLabel(today), today, to, outagesBetween(outages, today, to)));
  }

  const week = isoWeek(today);
  if (
    local.weekday === schedule.weeklyDigestDay &&
    !recordedRuns.has(runKey('WeeklyDigest', week)) &&
    isInLocalHour(now, timeZone, schedule.weeklyDigestHour)
  ) {
    const to = addDays(today, WEEKLY_HORIZON_DAYS - 1);
    const range = dateRangeLabel(today, to);
    const label = schedule.weeklyDigestDay === 'Monday' ? `week ${Number(week.slice(-2))} (${range})` : `the week ahead (${range})`;
    result.push(due('WeeklyDigest', week, label, today, to, outagesBetween(outages, today, to)));
  }

  const tomorrow = addDays(today, 1);
  if (!recordedRuns.has(runKey('DayBeforeReminder', tomorrow)) && isInLocalHour(now, timeZone, schedule.reminderHour)) {
    const listed = outagesBetween(outages, tomorrow, tomorrow);
    if (listed.length > 0) result.push(due('DayBeforeReminder', tomorrow, `tomorrow, ${longDateLabel(tomorrow)}`, tomorrow, tomorrow, listed));
  }

  return result;
}

/** The event payload of a due digest (renderers.ts reads DigestPayload). */
export function digestPayload(digest: DueDigest): DigestPayload {
  const week = digest.kind === 'WeeklyDigest' && digest.label.startsWith('week ') ? { week: Number(digest.period.slice(-2)) } : {};
  return { period: digest.label, outages: digest.outages, when: { kind: digest.kind, from: digest.from, to: digest.to, ...week } };
}
