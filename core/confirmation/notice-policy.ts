import type { EscalationStep } from '../plugin-api/preferences.ts';
import { firstDueAt } from './escalation-policy.ts';

const DAY = 24 * 3600 * 1000;

/**
 * The reminders of a notice to confirm by `until` (pure): one every 24
 * hours after the notice came, each still before `until`. A notice 4 days
 * ahead gets 3 (3, 2 and 1 days before); one less than a day ahead, none.
 */
export function remindersOf(createdAt: Date, until: Date): number {
  return Math.max(0, Math.ceil((until.getTime() - createdAt.getTime()) / DAY) - 1);
}

/** When a notice's confirmation is first due (pure): its first reminder, or with none its escalation's first step (or the list). */
export function noticeFirstDueAt(createdAt: Date, until: Date, steps: readonly EscalationStep[] | undefined, listAfterMinutes: number): Date {
  return remindersOf(createdAt, until) > 0 ? new Date(createdAt.getTime() + DAY) : firstDueAt(steps, createdAt, listAfterMinutes);
}

/** A reminder to send now: which one (1 for the first), and when the confirmation is due again. */
export interface ReminderMove {
  readonly number: number;
  readonly nextAt: Date;
}

/**
 * The reminder a notice's confirmation due `now` sends (pure), `reminded`
 * sent: the latest whose time has come (after the service was down, the
 * missed ones are not sent as well), due again at the one after it, or
 * after the last at its escalation's first step (or the list). Null once
 * every reminder went, or the time to confirm by has come: its escalation
 * goes on from there.
 */
export function nextReminder(
  createdAt: Date,
  until: Date,
  reminded: number,
  now: Date,
  steps: readonly EscalationStep[] | undefined,
  listAfterMinutes: number,
): ReminderMove | null {
  const planned = remindersOf(createdAt, until);
  if (reminded >= planned || now.getTime() >= until.getTime()) return null;
  const number = Math.min(planned, Math.max(reminded + 1, Math.floor((now.getTime() - createdAt.getTime()) / DAY)));
  const nextAt = number < planned ? new Date(createdAt.getTime() + (number + 1) * DAY) : firstDueAt(steps, now, listAfterMinutes);
  return { number, nextAt };
}
