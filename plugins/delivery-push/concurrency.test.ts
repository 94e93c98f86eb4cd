import { describe, expect, it } from 'vitest';
import { AnswerTime, depthPerConnection } from './concurrency.ts';

describe('depthPerConnection', () => {
  it.each<[string, number | undefined, number, number, number]>([
    ['no measure yet: the most allowed', undefined, 10_000, 16, 16],
    ['a fast server (20 ms): the most allowed', 20, 10_000, 16, 16],
    ['400 ms with a 5 s timeout: 6 wait behind each other (6 × 0.4 s within half of 5 s)', 400, 5_000, 16, 6],
    ['a server slower than half the timeout: one at a time', 4_000, 5_000, 16, 1],
    ['exactly half the timeout: one', 2_500, 5_000, 16, 1],
    ['a bound lower than what the speed allows', 10, 10_000, 4, 4],
  ])('%s', (_name, latency, timeout, max, expected) => {
    expect(depthPerConnection(latency, timeout, max)).toBe(expected);
  });
});

describe('AnswerTime', () => {
  it('starts at its first measure and moves a twentieth of the way to each next one', () => {
    const time = new AnswerTime();
    expect(time.averageMs).toBeUndefined();
    time.add(100);
    expect(time.averageMs).toBe(100);
    time.add(300);
    expect(time.averageMs).toBe(110);
  });
});
