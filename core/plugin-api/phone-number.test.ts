import { describe, expect, it } from 'vitest';
import { normalisePhoneNumber, subscriberNumber } from './phone-number.ts';

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

describe('subscriberNumber: only numbers that take texts (no toll fraud)', () => {
  it.each<[string, string, string | undefined, ReturnType<typeof subscriberNumber>]>([
    ['a Sri Lankan mobile', '077 123 4567', 'LK', { number: '+94771234567' }],
    ['a UK mobile', '+44 7911 123456', 'LK', { number: '+447911123456' }],
    ['a US number the plan cannot tell from a landline', '+1 415 867 5310', 'LK', { number: '+14158675310' }],
    ['a Colombo landline', '+94 11 234 5678', 'LK', { refused: 'not mobile', kind: 'fixed line' }],
    ['a US premium-rate number', '+1 900 555 1234', 'LK', { refused: 'not mobile', kind: 'premium rate' }],
    ['a UK premium-rate number', '+44 909 012 3456', 'LK', { refused: 'not mobile', kind: 'premium rate' }],
    ['a personal number', '+1 500 555 0006', 'LK', { refused: 'not mobile', kind: 'personal number' }],
    ['not a number at all', '+94 00 000 0000', 'LK', { refused: 'invalid' }],
  ])('%s', (_name, input, region, expected) => {
    expect(subscriberNumber(input, region)).toEqual(expected);
  });
});

describe('subscriberNumber for calls: a landline too, still no toll fraud', () => {
  it.each<[string, string, ReturnType<typeof subscriberNumber>]>([
    ['a Colombo landline', '+94 11 234 5678', { number: '+94112345678' }],
    ['a Sri Lankan mobile', '077 123 4567', { number: '+94771234567' }],
    ['a US premium-rate number', '+1 900 555 1234', { refused: 'not mobile', kind: 'premium rate' }],
    ['a UK premium-rate number', '+44 909 012 3456', { refused: 'not mobile', kind: 'premium rate' }],
  ])('%s', (_name, input, expected) => {
    expect(subscriberNumber(input, 'LK', 'call')).toEqual(expected);
  });
});
