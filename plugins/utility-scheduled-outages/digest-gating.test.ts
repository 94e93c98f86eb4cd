import { describe, expect, it } from 'vitest';
import {
  DAILY_HORIZON_DAYS,
  assertDigestSchedule,
  digestFields,
  digestPayload,
  digestScheduleFromConfig,
  digestSourceKey,
  outagesBetween,
  dueDigests,
  runKey,
  type DigestSchedule,
} from './digest-gating.ts';
import { DEFAULTS, kinds, NONE, only, outage, run, schedule } from './digest-gating.test-support.ts';
describe('keys', () => {
  it.each([
    ['DailyUpdate', '2026-11-22', 'DailyUpdate:2026-11-22', 'daily-2026-11-22'],
    ['WeeklyDigest', '2026-W48', 'WeeklyDigest:2026-W48', 'weekly-2026-W48'],
    ['DayBeforeReminder', '2026-11-24', 'DayBeforeReminder:2026-11-24', 'reminder-2026-11-24'],
  ] as const)('%s %s → run %s, SourceKey %s', (kind, period, key, sourceKey) => {
    expect(runKey(kind, period)).toBe(key);
    expect(digestSourceKey(kind, period)).toBe(sourceKey);
  });
});

describe('DailyUpdate: the local hour and the run gate', () => {
  it.each([
    // [case, now, schedule overrides, expected period or null]
    ['UTC at 06:00', '2026-11-22T06:00:00Z', {}, '2026-11-22'],
    ['UTC at 06:59:59', '2026-11-22T06:59:59Z', {}, '2026-11-22'],
    ['UTC at 05:59:59 (before the hour)', '2026-11-22T05:59:59Z', {}, null],
    ['UTC at 07:00 (after the hour: no catch-up)', '2026-11-22T07:00:00Z', {}, null],
    ['UTC at 18:00', '2026-11-22T18:00:00Z', {}, null],
    // Asia/Colombo, +05:30: local 06:00 is 00:30 UTC.
    ['Colombo 06:00 local = 00:30 UTC', '2026-11-22T00:30:00Z', { timeZone: 'Asia/Colombo' }, '2026-11-22'],
    ['Colombo 05:59 local = 00:29 UTC', '2026-11-22T00:29:00Z', { timeZone: 'Asia/Colombo' }, null],
    ['Colombo 07:00 local = 01:30 UTC', '2026-11-22T01:30:00Z', { timeZone: 'Asia/Colombo' }, null],
    ['Colombo at 06:00 UTC is 11:30 local', '2026-11-22T06:00:00Z', { timeZone: 'Asia/Colombo' }, null],
    // The UTC date differs from the local date: the period is the local date.
    ['Colombo hour 5: 23:45 UTC on the 21st is 05:15 on the 22nd', '2026-11-21T23:45:00Z', { timeZone: 'Asia/Colombo', dailyDigestHour: 5 }, '2026-11-22'],
    ['Colombo hour 0: 18:45 UTC on the 21st is 00:15 on the 22nd', '2026-11-21T18:45:00Z', { timeZone: 'Asia/Colombo', dailyDigestHour: 0 }, '2026-11-22'],
    [
      'New York hour 22: 03:30 UTC on the 23rd is 22:30 on the 22nd',
      '2026-11-23T03:30:00Z',
      { timeZone: 'America/New_York', dailyDigestHour: 22 },
      '2026-11-22',
    ],
    // America/New_York: EST (−5) in November, EDT (−4) in July.
    ['New York 06:00 EST = 11:00 UTC', '2026-11-22T11:00:00Z', { timeZone: 'America/New_York' }, '2026-11-22'],
    ['New York 05:30 EST = 10:30 UTC', '2026-11-22T10:30:00Z', { timeZone: 'America/New_York' }, null],
    ['New York 06:00 EDT = 10:00 UTC', '2026-07-05T10:00:00Z', { timeZone: 'America/New_York' }, '2026-07-05'],
    ['New York 07:00 EDT = 11:00 UTC', '2026-07-05T11:00:00Z', { timeZone: 'America/New_York' }, null],
  ] as const)('%s', (_case, now, overrides, period) => {
    const due = run(now, schedule(overrides)).filter((d) => d.kind === 'DailyUpdate');
    if (period === null) expect(due).toEqual([]);
    else expect(due.map((d) => [d.period, d.sourceKey, d.runKey])).toEqual([[period, `daily-${period}`, `DailyUpdate:${period}`]]);
  });

  it('is not due when the run of that local date is recorded, and a recorded run of another day does not block', () => {
    const now = '2026-11-22T06:10:00Z';
    expect(kinds(run(now, DEFAULTS, [], new Set(['DailyUpdate:2026-11-22'])))).toEqual([]);
    expect(kinds(run(now, DEFAULTS, [], new Set(['DailyUpdate:2026-11-21', 'WeeklyDigest:2026-W47', 'DayBeforeReminder:2026-11-22'])))).toEqual([
      'DailyUpdate',
    ]);
  });

  it('uses the local date for the run gate in Colombo (UTC date is the day before)', () => {
    const s = schedule({ timeZone: 'Asia/Colombo', dailyDigestHour: 5 });
    expect(kinds(run('2026-11-21T23:45:00Z', s, [], new Set(['DailyUpdate:2026-11-21'])))).toEqual(['DailyUpdate']);
    expect(kinds(run('2026-11-21T23:45:00Z', s, [], new Set(['DailyUpdate:2026-11-22'])))).toEqual([]);
  });

  it(`lists scheduled outages from the local date through ${DAILY_HORIZON_DAYS - 1} days after, sorted, cancelled excluded`, () => {
    const outages = [
      outage('2026-11-21', { id: 'yesterday' }),
      outage('2026-11-28', { id: 'last-day', start: '08:00' }),
      outage('2026-11-22', { id: 'today-late', start: '14:00' }),
      outage('2026-11-22', { id: 'today-early', start: '08:00' }),
      outage('2026-11-23', { id: 'cancelled', status: 'cancelled', feeder: 'F9', areas: ['Galle'] }),
      outage('2026-11-29', { id: 'beyond-horizon', feeder: 'F8' }),
      outage('2026-11-xx', { id: 'bad-date' }),
    ];
    const daily = only(run('2026-11-22T06:00:00Z', DEFAULTS, outages), 'DailyUpdate');
    expect(daily.outages.map((o) => o.id)).toEqual(['today-early', 'today-late', 'last-day']);
    expect([daily.from, daily.to]).toEqual(['2026-11-22', '2026-11-28']);
    expect(daily.label).toBe('Sunday 22 November 2026');
    expect(daily.fields).toEqual({ feeders: 'F1', areas: 'Kandy' });
  });
});

describe('WeeklyDigest', () => {
  it.each([
    // [case, now, schedule overrides, expected period or null, label]
    ['Monday 07:00 UTC', '2026-11-23T07:00:00Z', {}, '2026-W48', 'week 48 (23–29 November 2026)'],
    ['Monday 07:59 UTC', '2026-11-23T07:59:00Z', {}, '2026-W48', 'week 48 (23–29 November 2026)'],
    ['Monday 06:59 UTC', '2026-11-23T06:59:00Z', {}, null, ''],
    ['Monday 08:00 UTC', '2026-11-23T08:00:00Z', {}, null, ''],
    ['Sunday 07:00 UTC (not the configured day)', '2026-11-22T07:00:00Z', {}, null, ''],
    ['Tuesday 07:00 UTC', '2026-11-24T07:00:00Z', {}, null, ''],
    // Year boundary: 2026 has 53 ISO weeks.
    ['Monday 2026-12-28 is 2026-W53', '2026-12-28T07:00:00Z', {}, '2026-W53', 'week 53 (28 December 2026 – 3 January 2027)'],
    ['Monday 2027-01-04 is 2027-W01', '2027-01-04T07:00:00Z', {}, '2027-W01', 'week 1 (4–10 January 2027)'],
    ['Monday 2025-12-29 is 2026-W01', '2025-12-29T07:00:00Z', {}, '2026-W01', 'week 1 (29 December 2025 – 4 January 2026)'],
    ['Monday 2026-11-30 spans two months', '2026-11-30T07:00:00Z', {}, '2026-W49', 'week 49 (30 November – 6 December 2026)'],
    // Another configured day: the period is still the ISO week of the digest day.
    ['Sunday 2027-01-03 with WeeklyDigestDay Sunday', '2027-01-03T07:00:00Z', { weeklyDigestDay: 'Sunday' }, '2026-W53', 'the week ahead (3–9 January 2027)'],
    ['Friday 2027-01-01 with WeeklyDigestDay Friday', '2027-01-01T07:00:00Z', { weeklyDigestDay: 'Friday' }, '2026-W53', 'the week ahead (1–7 January 2027)'],
    // The local weekday decides, not the UTC one.
    ['Auckland Monday 07:00 NZDT = Sunday 18:00 UTC', '2026-11-22T18:00:00Z', { timeZone: 'Pacific/Auckland' }, '2026-W48', 'week 48 (23–29 November 2026)'],
    ['Auckland Monday 18:00 UTC is Tuesday local', '2026-11-23T18:00:00Z', { timeZone: 'Pacific/Auckland' }, null, ''],
    ['New York Monday 07:00 EST = 12:00 UTC', '2026-11-23T12:00:00Z', { timeZone: 'America/New_York' }, '2026-W48', 'week 48 (23–29 November 2026)'],
    ['Colombo Monday 07:00 = 01:30 UTC', '2026-11-23T01:30:00Z', { timeZone: 'Asia/Colombo' }, '2026-W48', 'week 48 (23–29 November 2026)'],
    ['Colombo Sunday 23:30 UTC is Monday 05:00 local (before the hour)', '2026-11-22T23:30:00Z', { timeZone: 'Asia/Colombo' }, null, ''],
  ] as const)('%s', (_case, now, overrides, period, label) => {
    const due = run(now, schedule(overrides)).filter((d) => d.kind === 'WeeklyDigest');
    if (period === null) expect(due).toEqual([]);
    else expect(due.map((d) => [d.period, d.sourceKey, d.runKey, d.label])).toEqual([[period, `weekly-${period}`, `WeeklyDigest:${period}`, label]]);
  });

  it('is not due when that ISO week has a recorded run', () => {
    expect(kinds(run('2026-11-23T07:00:00Z', DEFAULTS, [], new Set(['WeeklyDigest:2026-W48'])))).toEqual([]);
    expect(kinds(run('2026-11-23T07:00:00Z', DEFAULTS, [], new Set(['WeeklyDigest:2026-W47', 'DailyUpdate:2026-11-23'])))).toEqual(['WeeklyDigest']);
    expect(kinds(run('2027-01-01T07:00:00Z', schedule({ weeklyDigestDay: 'Friday' }), [], new Set(['WeeklyDigest:2026-W53'])))).toEqual([]);
    expect(kinds(run('2027-01-01T07:00:00Z', schedule({ weeklyDigestDay: 'Friday' }), [], new Set(['WeeklyDigest:2027-W53'])))).toEqual(['WeeklyDigest']);
  });

  it('lists the week ahead from the digest day (D..D+6) across the year boundary, scheduled only', () => {
    const outages = [
      outage('2026-12-27', { id: 'sunday-before' }),
      outage('2026-12-28', { id: 'monday', feeder: 'F2', areas: ['Galle', 'Matara'] }),
      outage('2027-01-01', { id: 'new-year', feeder: 'F3', areas: ['Kandy'] }),
      outage('2027-01-02', { id: 'cancelled', status: 'cancelled', feeder: 'F9', areas: ['Jaffna'] }),
      outage('2027-01-03', { id: 'last-day', feeder: 'F2', areas: ['Galle'] }),
      outage('2027-01-04', { id: 'next-week', feeder: 'F7' }),
    ];
    const weekly = only(run('2026-12-28T07:00:00Z', DEFAULTS, outages), 'WeeklyDigest');
    expect(weekly.outages.map((o) => o.id)).toEqual(['monday', 'new-year', 'last-day']);
    expect([weekly.from, weekly.to]).toEqual(['2026-12-28', '2027-01-03']);
    expect(weekly.fields).toEqual({ feeders: 'F2, F3', areas: 'Galle, Kandy, Matara' });
  });
});

describe('DayBeforeReminder', () => {
  const outages = [
    outage('2026-11-23', { id: 'today', feeder: 'F0' }),
    outage('2026-11-24', { id: 'tomorrow-b', start: '14:00', feeder: 'F2', areas: ['Matara'] }),
    outage('2026-11-24', { id: 'tomorrow-a', start: '08:00', feeder: 'F1', areas: ['Kandy', 'Peradeniya'] }),
    outage('2026-11-24', { id: 'tomorrow-cancelled', status: 'cancelled', feeder: 'F9', areas: ['Jaffna'] }),
    outage('2026-11-25', { id: 'day-after', feeder: 'F5' }),
    outage('2026-11-27', { id: 'only-cancelled', status: 'cancelled' }),
  ];

  it("at the reminder hour lists tomorrow's scheduled outages only", () => {
    const reminder = only(run('2026-11-23T18:00:00Z', DEFAULTS, outages), 'DayBeforeReminder');
    expect(reminder).toMatchObject({
      period: '2026-11-24',
      sourceKey: 'reminder-2026-11-24',
      runKey: 'DayBeforeReminder:2026-11-24',
      label: 'tomorrow, Tuesday 24 November 2026',
      from: '2026-11-24',
      to: '2026-11-24',
      fields: { feeders: 'F1, F2', areas: 'Kandy, Matara, Peradeniya' },
    });
    expect(reminder.outages.map((o) => o.id)).toEqual(['tomorrow-a', 'tomorrow-b']);
  });

  it.each([
    ['before the hour', '2026-11-23T17:59:59Z', NONE, false],
    ['in the hour', '2026-11-23T18:30:00Z', NONE, true],
    ['after the hour', '2026-11-23T19:00:00Z', NONE, false],
    ['tomorrow already reminded', '2026-11-23T18:00:00Z', new Set(['DayBeforeReminder:2026-11-24']), false],
    ['another date reminded', '2026-11-23T18:00:00Z', new Set(['DayBeforeReminder:2026-11-23', 'DailyUpdate:2026-11-23']), true],
    ['tomorrow has no outages (2026-11-26)', '2026-11-25T18:00:00Z', NONE, false],
    ['tomorrow has only cancelled outages (2026-11-27)', '2026-11-26T18:00:00Z', NONE, false],
    ['day after tomorrow is not reminded yet', '2026-11-24T18:00:00Z', NONE, true], // 2026-11-25 only
  ] as const)('%s', (_case, now, runs, expected) => {
    const due = run(now, DEFAULTS, outages, runs).filter((d) => d.kind === 'DayBeforeReminder');
    expect(due.length).toBe(expected ? 1 : 0);
    if (expected) expect(due[0].period).toBe(new Date(Date.parse(now) + 86_400_000).toISOString().slice(0, 10));
  });

  it('uses the local date: Colombo 18:00 local = 12:30 UTC; 18:45 UTC is already the next local day', () => {
    const s = schedule({ timeZone: 'Asia/Colombo' });
    expect(only(run('2026-11-23T12:30:00Z', s, outages), 'DayBeforeReminder').period).toBe('2026-11-24');
    expect(run('2026-11-23T18:00:00Z', s, outages).filter((d) => d.kind === 'DayBeforeReminder')).toEqual([]);
    const ny = schedule({ timeZone: 'America/New_York', reminderHour: 22 });
    // 03:10 UTC on the 24th is 22:10 on the 23rd in New York: tomorrow is the 24th.
    expect(only(run('2026-11-24T03:10:00Z', ny, outages), 'DayBeforeReminder').period).toBe('2026-11-24');
  });
});

describe('empty periods', () => {
  it('DailyUpdate and WeeklyDigest are still created, with an empty list and empty Fields; no reminder', () => {
    const s = schedule({ dailyDigestHour: 7, weeklyDigestHour: 7, reminderHour: 7 });
    const due = run('2026-11-23T07:00:00Z', s, [outage('2026-11-22'), outage('2026-11-30'), outage('2026-11-24', { status: 'cancelled' })]);
    expect(kinds(due)).toEqual(['DailyUpdate', 'WeeklyDigest']);
    for (const digest of due) {
      expect(digest.outages).toEqual([]);
      expect(digest.fields).toEqual({ feeders: '', areas: '' });
      expect(digestPayload(digest)).toMatchObject({ period: digest.label, outages: [], when: { kind: digest.kind, from: digest.from, to: digest.to } });
    }
  });
});

describe('several digests at once', () => {
  it('gives DailyUpdate, WeeklyDigest, DayBeforeReminder in that order when their hours coincide', () => {
    const s = schedule({ dailyDigestHour: 7, weeklyDigestHour: 7, reminderHour: 7 });
    const due = run('2026-11-23T07:00:00Z', s, [outage('2026-11-24')]);
    expect(due.map((d) => d.sourceKey)).toEqual(['daily-2026-11-23', 'weekly-2026-W48', 'reminder-2026-11-24']);
    expect(kinds(run('2026-11-23T07:00:00Z', s, [outage('2026-11-24')], new Set(due.map((d) => d.runKey))))).toEqual([]);
  });

  it('is a pure function: same inputs, same output; inputs are not mutated', () => {
    const outages = Object.freeze([outage('2026-11-24', { id: 'b', start: '10:00' }), outage('2026-11-24', { id: 'a', start: '09:00' })]);
    const s = schedule({ dailyDigestHour: 18 });
    const first = dueDigests(new Date('2026-11-23T18:00:00Z'), s, outages, NONE);
    const second = dueDigests(new Date('2026-11-23T18:00:00Z'), s, outages, NONE);
    expect(second).toEqual(first);
    expect(outages.map((o) => o.id)).toEqual(['b', 'a']);
  });
});

describe('Fields', () => {
  it('are the distinct, trimmed, sorted feeders and areas of the listed outages', () => {
    expect(
      digestFields([
        outage('2026-11-24', { feeder: 'F2', areas: ['Matara', 'Galle'] }),
        outage('2026-11-24', { feeder: ' F1 ', areas: ['Galle', ' Kandy'] }),
        outage('2026-11-25', { feeder: 'F2', areas: [] }),
        outage('2026-11-25', { feeder: '', areas: ['', 'Ampara'] }),
      ]),
    ).toEqual({ feeders: 'F1, F2', areas: 'Ampara, Galle, Kandy, Matara' });
    expect(digestFields([])).toEqual({ feeders: '', areas: '' });
  });

  it('let a feeder-filtered subscription match a digest that lists its feeder', () => {
    const daily = only(
      run('2026-11-22T06:00:00Z', DEFAULTS, [outage('2026-11-23', { feeder: 'Feeder-12' }), outage('2026-11-24', { feeder: 'Feeder-3' })]),
      'DailyUpdate',
    );
    const listed = daily.fields.feeders.split(',').map((f) => f.trim().toLowerCase());
    expect(listed).toEqual(['feeder-12', 'feeder-3']);
    expect(daily.fields.areas.toLowerCase()).toContain('kandy');
  });

  it('outagesBetween is inclusive and ignores cancelled and malformed dates', () => {
    const items = [
      outage('2026-11-22', { id: 'a' }),
      outage('2026-11-24', { id: 'b' }),
      outage('2026-11-23', { id: 'c', status: 'cancelled' }),
      outage('2026-11-2', { id: 'd' }),
    ];
    expect(outagesBetween(items, '2026-11-22', '2026-11-24').map((o) => o.id)).toEqual(['a', 'b']);
    expect(outagesBetween(items, '2026-11-23', '2026-11-23')).toEqual([]);
  });
});

describe('schedule validation', () => {
  it('builds the schedule from the config section defaults', () => {
    expect(digestScheduleFromConfig({ TimeZone: 'UTC', DailyDigestHour: 6, WeeklyDigestDay: 'Monday', WeeklyDigestHour: 7, ReminderHour: 18 })).toEqual(
      DEFAULTS,
    );
  });

  it.each([
    ['an unknown zone', { timeZone: 'Europe/Atlantis' }, /Invalid IANA time zone "Europe\/Atlantis"/],
    ['an empty zone', { timeZone: '' }, /Invalid IANA time zone/],
    ['hour 24', { dailyDigestHour: 24 }, /dailyDigestHour must be an integer hour 0\.\.23/],
    ['a negative hour', { reminderHour: -1 }, /reminderHour/],
    ['a fractional hour', { weeklyDigestHour: 6.5 }, /weeklyDigestHour/],
    ['an unknown day', { weeklyDigestDay: 'Funday' }, /weeklyDigestDay must be one of Monday/],
  ] as const)('rejects %s', (_case, overrides, message) => {
    const s = { ...DEFAULTS, ...overrides } as DigestSchedule;
    expect(() => assertDigestSchedule(s)).toThrow(message);
    expect(() => dueDigests(new Date('2026-11-22T06:00:00Z'), s, [], NONE)).toThrow(message);
  });
});
