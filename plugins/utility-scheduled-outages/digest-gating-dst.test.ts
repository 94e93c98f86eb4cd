import { describe, expect, it } from 'vitest';
import { outage, run, schedule } from './digest-gating.test-support.ts';

// Daylight-saving changes: the decisions written at the top of digest-gating.ts, one table each.
describe('DST: Europe/London', () => {
  const london = (hour: number) => schedule({ timeZone: 'Europe/London', dailyDigestHour: hour, weeklyDigestHour: 23, reminderHour: 23 });

  // 2026-03-29: clocks go 01:00 GMT → 02:00 BST; local 01:00–01:59 does not exist.
  it.each([
    ['00:30 GMT (00:30 UTC), hour 1', '2026-03-29T00:30:00Z', 1, null],
    ['02:00 BST (01:00 UTC), hour 1: first hour after the gap', '2026-03-29T01:00:00Z', 1, '2026-03-29'],
    ['02:59 BST (01:59 UTC), hour 1', '2026-03-29T01:59:00Z', 1, '2026-03-29'],
    ['03:00 BST (02:00 UTC), hour 1: no longer', '2026-03-29T02:00:00Z', 1, null],
    ['02:00 BST (01:00 UTC), hour 2: exists, due as usual', '2026-03-29T01:00:00Z', 2, '2026-03-29'],
    ['00:30 GMT, hour 0', '2026-03-29T00:30:00Z', 0, '2026-03-29'],
    ['02:30 BST, hour 0: not skipped, already past', '2026-03-29T01:30:00Z', 0, null],
    ['06:00 BST (05:00 UTC), hour 6', '2026-03-29T05:00:00Z', 6, '2026-03-29'],
    ['06:00 UTC is 07:00 BST, hour 6', '2026-03-29T06:00:00Z', 6, null],
    ['the day before, 01:00 GMT, hour 1', '2026-03-28T01:00:00Z', 1, '2026-03-28'],
    ['the day before, 02:00 GMT, hour 1', '2026-03-28T02:00:00Z', 1, null],
  ] as const)('spring forward: %s', (_case, now, hour, period) => {
    const due = run(now, london(hour)).filter((d) => d.kind === 'DailyUpdate');
    expect(due.map((d) => d.period)).toEqual(period === null ? [] : [period]);
  });

  it('spring forward: every minute of the day, a digest for hour 1 is due exactly during 02:00–02:59 BST', () => {
    const dueMinutes: string[] = [];
    for (let ms = Date.parse('2026-03-28T23:00:00Z'); ms < Date.parse('2026-03-29T23:00:00Z'); ms += 60_000) {
      if (run(new Date(ms).toISOString(), london(1)).some((d) => d.kind === 'DailyUpdate')) dueMinutes.push(new Date(ms).toISOString());
    }
    expect(dueMinutes).toHaveLength(60);
    expect([dueMinutes[0], dueMinutes.at(-1)]).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-29T01:59:00.000Z']);
  });

  // 2026-10-25: clocks go 02:00 BST → 01:00 GMT; local 01:00–01:59 happens twice.
  it('fall back: hour 1 is due in both occurrences unless the run is recorded; deterministic', () => {
    const first = run('2026-10-25T00:30:00Z', london(1)); // 01:30 BST
    const second = run('2026-10-25T01:30:00Z', london(1)); // 01:30 GMT
    expect(first.map((d) => d.sourceKey)).toEqual(['daily-2026-10-25']);
    expect(second).toEqual(first); // the same period, SourceKey and content: the ledger would drop a repeat
    expect(run('2026-10-25T01:30:00Z', london(1), [], new Set(['DailyUpdate:2026-10-25']))).toEqual([]);
    expect(run('2026-10-25T02:00:00Z', london(1))).toEqual([]); // 02:00 GMT
    expect(run('2026-10-24T23:59:00Z', london(1))).toEqual([]); // 00:59 BST
  });

  it('fall back: every minute of the day, a digest for hour 1 is due for 120 minutes (two occurrences)', () => {
    let count = 0;
    for (let ms = Date.parse('2026-10-24T23:00:00Z'); ms < Date.parse('2026-10-26T00:00:00Z'); ms += 60_000) {
      if (run(new Date(ms).toISOString(), london(1)).some((d) => d.kind === 'DailyUpdate')) count++;
    }
    expect(count).toBe(120);
  });

  it('weekly and reminder follow the same rule: a Sunday weekly at hour 1 fires at 02:xx BST on 2026-03-29', () => {
    const s = schedule({ timeZone: 'Europe/London', dailyDigestHour: 12, weeklyDigestDay: 'Sunday', weeklyDigestHour: 1, reminderHour: 1 });
    const due = run('2026-03-29T01:15:00Z', s, [outage('2026-03-30')]);
    expect(due.map((d) => d.sourceKey)).toEqual(['weekly-2026-W13', 'reminder-2026-03-30']);
  });
});

describe('DST elsewhere', () => {
  it('America/New_York 2026-03-08: hour 2 does not exist, due at 03:00 EDT', () => {
    const s = schedule({ timeZone: 'America/New_York', dailyDigestHour: 2 });
    expect(run('2026-03-08T06:59:00Z', s).map((d) => d.sourceKey)).toEqual([]); // 01:59 EST
    expect(run('2026-03-08T07:00:00Z', s).map((d) => d.sourceKey)).toEqual(['daily-2026-03-08']); // 03:00 EDT
    expect(run('2026-03-08T08:00:00Z', s).map((d) => d.sourceKey)).toEqual([]); // 04:00 EDT
  });

  it('America/Havana 2026-03-08: midnight does not exist, an hour-0 digest is due at 01:00 of that date', () => {
    const s = schedule({ timeZone: 'America/Havana', dailyDigestHour: 0 });
    expect(run('2026-03-08T04:59:00Z', s).map((d) => d.sourceKey)).toEqual([]); // 23:59 on the 7th
    expect(run('2026-03-08T05:00:00Z', s).map((d) => d.sourceKey)).toEqual(['daily-2026-03-08']); // 01:00 CDT
    expect(run('2026-03-08T06:00:00Z', s).map((d) => d.sourceKey)).toEqual([]);
  });
});
