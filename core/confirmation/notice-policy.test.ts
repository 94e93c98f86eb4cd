import { describe, expect, it } from 'vitest';
import { nextReminder, noticeFirstDueAt, remindersOf } from './notice-policy.ts';

const at = (day: number, time = '10:00') => new Date(`2026-12-${String(day).padStart(2, '0')}T${time}:00Z`);
const sms = { provider: 'Sms', destination: '+94771234567', afterMinutes: 60 };
const LIST_AFTER = 15;

describe('notice policy: a reminder every 24 hours until the time to confirm by, then the escalation', () => {
  it.each([
    ['4 days ahead: 3 reminders (3, 2 and 1 days before)', at(1), at(5), 3],
    ['4 days and 2 hours ahead: 4, the last 2 hours before', at(1), at(5, '12:00'), 4],
    ['a day and a half ahead: 1, the morning of', at(1), at(2, '22:00'), 1],
    ['exactly a day ahead: none', at(1), at(2), 0],
    ['less than a day ahead: none', at(1), at(1, '20:00'), 0],
    ['already past: none', at(2), at(1), 0],
  ])('%s', (_name, created, until, expected) => {
    expect(remindersOf(created, until)).toBe(expected);
  });

  it.each([
    ['with reminders: the first, a day after the notice', at(1), at(5), [sms], at(2)],
    ['with none: the escalation’s first step after its delay', at(1), at(1, '20:00'), [sms], at(1, '11:00')],
    ['with none and no escalation: the list after its wait', at(1), at(1, '20:00'), [], at(1, '10:15')],
  ])('first due: %s', (_name, created, until, steps, expected) => {
    expect(noticeFirstDueAt(created, until, steps, LIST_AFTER)).toEqual(expected);
  });

  it.each([
    ['the first, due at the next', 0, at(2), { number: 1, nextAt: at(3) }],
    ['the second, due at the third', 1, at(3), { number: 2, nextAt: at(4) }],
    ['the last, then the escalation’s first step after its delay', 2, at(4), { number: 3, nextAt: at(4, '11:00') }],
    ['a late run counts its next from the notice, not from now', 0, at(2, '15:00'), { number: 1, nextAt: at(3) }],
    ['late by almost a day: the first only, the second at its own time', 0, at(3, '09:00'), { number: 1, nextAt: at(3) }],
    ['down past two reminder times: the latest of them', 0, at(4, '10:30'), { number: 3, nextAt: at(4, '11:30') }],
    ['every reminder sent: none (the escalation goes on)', 3, at(5), null],
    ['the time to confirm by has come: none', 1, at(5), null],
  ])('%s', (_name, reminded, now, expected) => {
    expect(nextReminder(at(1), at(5), reminded, now, [sms], LIST_AFTER)).toEqual(expected);
  });
});
