import { localInstant } from '#plugin-api';
import { addDays, localParts } from './local-time.ts';
import type { ScheduledOutageItem } from './scheduled-types.ts';

/** Notices are never sent at night: from the notice hour to this local hour (exclusive). */
export const NOTICE_HOURS_END = 21;

export interface NoticeSchedule {
  readonly timeZone: string;
  /** ScheduledOutages__ConfirmNoticeDays: how many days ahead (by the local date); 0 sends none. */
  readonly days: number;
  /** ScheduledOutages__ConfirmNoticeHour: the local hour notices may go from. */
  readonly hour: number;
}

/** A notice to send: the outage, and when it starts (the time to confirm it by). */
export interface DueNotice {
  readonly outage: ScheduledOutageItem;
  readonly startsAt: Date;
}

/** The last local date whose outages get their notice today (pure): `days` after today. */
export const noticeHorizon = (now: Date, schedule: NoticeSchedule) => addDays(localParts(now, schedule.timeZone).date, schedule.days);

/**
 * The notices due now (pure): each scheduled outage dated within `days`
 * days (by the feed's local date) that has not started and has had no
 * notice yet, in the day's notice hours only (a notice may be a phone
 * call); earliest first.
 */
export function dueNotices(now: Date, schedule: NoticeSchedule, upcoming: readonly ScheduledOutageItem[], noticed: ReadonlySet<string>): DueNotice[] {
  if (schedule.days <= 0) return [];
  const { hour } = localParts(now, schedule.timeZone);
  if (hour < schedule.hour || hour >= NOTICE_HOURS_END) return [];
  const horizon = noticeHorizon(now, schedule);
  return upcoming
    .filter((outage) => outage.status === 'scheduled' && outage.date <= horizon && !noticed.has(outage.id))
    .map((outage) => ({ outage, startsAt: localInstant(outage.date, outage.start, schedule.timeZone) }))
    .filter((notice) => notice.startsAt.getTime() > now.getTime())
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
}
