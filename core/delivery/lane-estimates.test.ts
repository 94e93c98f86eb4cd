import { describe, expect, it } from 'vitest';
import { estimatedSeconds, recentPerSecond, type LaneState } from './lane-estimates.ts';

const lane = (state: Partial<LaneState>): LaneState => ({ waiting: 0, ratePerSecond: 0, recentPerSecond: null, pausedForSeconds: 0, ...state });

describe('estimatedSeconds', () => {
  it.each<[string, number, LaneState, number | null]>([
    ['5,000 texts at 20 a second: 250 s', 5000, lane({ ratePerSecond: 20 }), 250],
    ['after 1,000 already waiting: 300 s', 5000, lane({ ratePerSecond: 20, waiting: 1000 }), 300],
    ['a paused lane adds its pause', 100, lane({ ratePerSecond: 10, pausedForSeconds: 30 }), 40],
    ['no rate: at its recent pace', 3000, lane({ recentPerSecond: 1500 }), 2],
    ['a rate wins over the recent pace', 100, lane({ ratePerSecond: 1, recentPerSecond: 1000 }), 100],
    ['a fraction of a second is 1 s', 3, lane({ recentPerSecond: 15000 }), 1],
    ['nobody to reach: 0', 0, lane({ ratePerSecond: 5 }), 0],
    ['no rate and nothing sent lately: unknown', 10, lane({}), null],
    ['decimals: 0.5 a second', 3, lane({ ratePerSecond: 0.5 }), 6],
  ])('%s', (_name, recipients, state, expected) => {
    expect(estimatedSeconds(recipients, state)).toBe(expected);
  });
});

describe('recentPerSecond', () => {
  const now = new Date('2026-11-28T10:05:30.000Z');
  const minute = (hhmm: string, delivered: number, failed = 0) => ({ minute: new Date(`2026-11-28T${hhmm}:00.000Z`), delivered, failed });
  it.each<[string, ReturnType<typeof minute>[], number | null]>([
    ['nothing sent: null', [], null],
    [
      'the minutes since the first of them began (10:01 to 10:05:30)',
      [minute('10:01', 600), minute('10:02', 600), minute('10:03', 600), minute('10:04', 600), minute('10:05', 300)],
      2700 / 270,
    ],
    ['never further back than five minutes', [minute('10:00', 600), minute('10:01', 600), minute('10:05', 300)], 1500 / 300],
    ['older minutes are left out', [minute('09:50', 10_000), minute('10:05', 120)], 120 / 60],
    ['a burst in the current minute counts over at least a minute', [minute('10:05', 3000)], 3000 / 60],
    ['failures count: the lane spent its time on them too', [minute('10:04', 60, 60)], 120 / 90],
  ])('%s', (_name, minutes, expected) => {
    const got = recentPerSecond(minutes, now);
    if (expected === null) expect(got).toBeNull();
    else expect(got).toBeCloseTo(expected, 6);
  });
});
