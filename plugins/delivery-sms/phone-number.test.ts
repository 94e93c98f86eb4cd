import { describe, expect, it } from 'vitest';
import { normalisePhoneNumber } from './phone-number.ts';

describe('normalisePhoneNumber', () => {
  it.each<[string, string, string | undefined, string | null]>([
    ['E.164 stays', '+94771234567', undefined, '+94771234567'],
    ['spaces and dashes go', '+94 77-123 4567', undefined, '+94771234567'],
    ['a national number in the default region', '077 123 4567', 'LK', '+94771234567'],
    ['a national number without a region is refused', '0771234567', undefined, null],
    ['a US number', '+1 415 867 5310', 'LK', '+14158675310'],
    ['too short', '+9477', 'LK', null],
    ['an impossible number', '+94 00 000 0000', 'LK', null],
    ['letters', '+94 77 CALL ME', 'LK', null],
    ['empty', '  ', 'LK', null],
    ['a line break is refused', '+94771234567\nX', 'LK', null],
  ])('%s', (_name, input, region, expected) => {
    expect(normalisePhoneNumber(input, region)).toBe(expected);
  });
});
