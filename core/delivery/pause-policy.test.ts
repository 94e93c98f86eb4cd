import { describe, expect, it } from 'vitest';
import { nextPause, type LanePauseState } from './pause-policy.ts';

const now = new Date('2026-11-28T10:00:00.000Z');
const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe('nextPause', () => {
  it.each<[string, LanePauseState, number | undefined, { seconds: number; until: Date } | null]>([
    ['never paused, Retry-After 30: 30 s', { pausedUntil: null, lastSeconds: 0 }, 30, { seconds: 30, until: at(30) }],
    ['never paused, no Retry-After: 1 s', { pausedUntil: null, lastSeconds: 0 }, undefined, { seconds: 1, until: at(1) }],
    ['a 1 s pause ended 0.5 s ago, no Retry-After again: 2 s', { pausedUntil: at(-0.5), lastSeconds: 1 }, undefined, { seconds: 2, until: at(2) }],
    ['a 4 s pause ended 3 s ago: 8 s', { pausedUntil: at(-3), lastSeconds: 4 }, undefined, { seconds: 8, until: at(8) }],
    ['doubling stops at 5 min', { pausedUntil: at(-1), lastSeconds: 256 }, undefined, { seconds: 300, until: at(300) }],
    ['a pause that ended longer ago than it lasted starts again at 1 s', { pausedUntil: at(-10), lastSeconds: 8 }, undefined, { seconds: 1, until: at(1) }],
    ['still paused, no Retry-After (a request that was on the wire): no change', { pausedUntil: at(0.7), lastSeconds: 1 }, undefined, null],
    ['still paused 20 s more, Retry-After 10: the longer pause stands', { pausedUntil: at(20), lastSeconds: 30 }, 10, null],
    ['still paused 5 s more, Retry-After 10: 10 s from now', { pausedUntil: at(5), lastSeconds: 10 }, 10, { seconds: 10, until: at(10) }],
    ['Retry-After 0: no wait, but said', { pausedUntil: null, lastSeconds: 0 }, 0, { seconds: 0, until: now }],
    ['a Retry-After of a day is honoured for an hour', { pausedUntil: null, lastSeconds: 0 }, 86_400, { seconds: 3600, until: at(3600) }],
  ])('%s', (_name, state, retryAfter, expected) => {
    expect(nextPause(state, retryAfter, now)).toEqual(expected);
  });
});
