import { describe, expect, it } from 'vitest';
import { retryAfterSeconds } from './retry-after.ts';

const now = new Date('2026-11-28T10:00:00.000Z');

describe('retryAfterSeconds', () => {
  it.each<[string, string | string[] | undefined, number | undefined]>([
    ['delay-seconds', '120', 120],
    ['zero', '0', 0],
    ['around its spaces', ' 5 ', 5],
    ['the first of two headers', ['7', '9'], 7],
    ['an IMF-fixdate 90 s ahead', 'Sat, 28 Nov 2026 10:01:30 GMT', 90],
    ['an RFC 850 date 60 s ahead', 'Saturday, 28-Nov-26 10:01:00 GMT', 60],
    ['an asctime date 30 s ahead', 'Sat Nov 28 10:00:30 2026', 30],
    ['a date already past: 0', 'Sat, 28 Nov 2026 09:59:00 GMT', 0],
    ['absent', undefined, undefined],
    ['empty', '', undefined],
    ['a negative number', '-5', undefined],
    ['a fraction', '1.5', undefined],
    ['a date in another zone is not an HTTP-date', 'Sat, 28 Nov 2026 10:01:30 +0000', undefined],
    ['words', 'soon', undefined],
  ])('%s', (_name, header, expected) => {
    expect(retryAfterSeconds(header, now)).toBe(expected);
  });
});
