import { describe, expect, it } from 'vitest';
import { dueNotices } from './confirm-notices.ts';
import type { ScheduledOutageItem } from './scheduled-types.ts';

const ZONE = 'Asia/Colombo';
const schedule = { timeZone: ZONE, days: 4, hour: 9 };
/** A local time in Colombo (UTC+05:30) on a December day. */
const local = (day: number, time: string) => new Date(`2026-12-${String(day).padStart(2, '0')}T${time}:00+05:30`);
const outage = (id: string, day: number, start = '09:00', status: ScheduledOutageItem['status'] = 'scheduled'): ScheduledOutageItem => ({
  id,
  date: `2026-12-${String(day).padStart(2, '0')}`,
  start,
  end: '17:00',
  feeder: 'F12',
  areas: ['Kandy'],
  status,
});

describe('planned-outage notices to confirm: the days ahead, the notice hours, once each', () => {
  it.each([
    ['an outage 4 days ahead gets its notice', local(1, '10:00'), [outage('a', 5)], new Set<string>(), ['a']],
    ['one 5 days ahead waits for its day', local(1, '10:00'), [outage('a', 6)], new Set<string>(), []],
    ['one later today still gets it, before it starts', local(1, '10:00'), [outage('a', 1, '14:00')], new Set<string>(), ['a']],
    ['one that has started gets none', local(1, '10:00'), [outage('a', 1, '09:30')], new Set<string>(), []],
    ['one noticed already gets none again', local(1, '10:00'), [outage('a', 3)], new Set(['a']), []],
    ['a cancelled one gets none', local(1, '10:00'), [outage('a', 3, '09:00', 'cancelled')], new Set<string>(), []],
    ['before the notice hour: none yet', local(1, '08:59'), [outage('a', 3)], new Set<string>(), []],
    ['at 21:00 and after: none (never at night)', local(1, '21:00'), [outage('a', 3)], new Set<string>(), []],
    ['the earliest outage first', local(1, '10:00'), [outage('b', 4), outage('a', 2)], new Set<string>(), ['a', 'b']],
  ])('%s', (_name, now, upcoming, noticed, expected) => {
    expect(dueNotices(now, schedule, upcoming, noticed).map((notice) => notice.outage.id)).toEqual(expected);
  });

  it('a notice is confirmed by the outage’s start, in the feed’s zone', () => {
    expect(dueNotices(local(1, '10:00'), schedule, [outage('a', 3, '08:30')], new Set())[0]!.startsAt.toISOString()).toBe('2026-12-03T03:00:00.000Z');
  });

  it('ConfirmNoticeDays 0 sends no notice', () => {
    expect(dueNotices(local(1, '10:00'), { ...schedule, days: 0 }, [outage('a', 2)], new Set())).toEqual([]);
  });
});
