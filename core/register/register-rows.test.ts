import { describe, expect, it } from 'vitest';
import { Errors } from '../errors.ts';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import { readRegister, REGISTER_RADIUS_METERS } from './register-rows.ts';

/** Targets as the register uses them: a phone becomes E.164, an email must have an @. */
const voice = {
  provider: 'Voice',
  prepareDestination: (value: string) => {
    if (/^0\d{9}$/.test(value.replaceAll(' ', ''))) return `+94${value.replaceAll(' ', '').slice(1)}`;
    throw new Errors.InvalidField('body/delivery/destination must be a phone number (+94112345678, or a national number of LK)');
  },
} as unknown as DeliveryTarget;
const email = {
  provider: 'Email',
  prepareDestination: (value: string) => {
    if (value.includes('@')) return value.toLowerCase();
    throw new Errors.InvalidField('body/delivery/destination must be an email address');
  },
} as unknown as DeliveryTarget;
const HEADER = ['Name', 'Phone', 'Email', 'Language', 'Feeder', 'Place'];
const row = (values: Partial<Record<'Name' | 'Phone' | 'Email' | 'Language' | 'Feeder' | 'Place', string>>) => ({
  Name: '',
  Phone: '',
  Email: '',
  Language: '',
  Feeder: '',
  Place: '',
  ...values,
});
const lines = (rows: Array<Record<string, string>>) => rows.map((values, index) => ({ line: index + 2, values }));
const read = (...rows: Array<Record<string, string>>) => readRegister(lines(rows), HEADER, { phone: voice, email });

describe('readRegister: each line, a confirming subscription per way to reach the person', () => {
  it('a line with a phone and an email asks for a call and an email, in its language, for its feeder', () => {
    expect(read(row({ Name: 'Mrs Perera', Phone: '011 234 5678', Email: 'Perera@example.org', Language: 'si', Feeder: 'F12' }))).toEqual({
      subscriptions: [
        { line: 2, displayName: 'Mrs Perera', provider: 'Voice', destination: '+94112345678', language: 'si', filter: { feeders: ['F12'] } },
        { line: 2, displayName: 'Mrs Perera', provider: 'Email', destination: 'perera@example.org', language: 'si', filter: { feeders: ['F12'] } },
      ],
      refused: [],
    });
  });

  it('a place is a point with a house-sized radius; no language is English', () => {
    expect(read(row({ Name: 'Mr Silva', Phone: '0771234567', Place: '7.2906, 80.6337' })).subscriptions).toEqual([
      {
        line: 2,
        displayName: 'Mr Silva',
        provider: 'Voice',
        destination: '+94771234567',
        language: 'en',
        filter: { places: [{ lat: 7.2906, lon: 80.6337, radiusMeters: REGISTER_RADIUS_METERS }] },
      },
    ]);
  });

  it.each([
    ['no name', row({ Phone: '0112345678', Feeder: 'F1' }), [{ line: 2, column: 'name', reason: 'must not be blank' }]],
    [
      'a name of two lines',
      row({ Name: 'A\nB', Phone: '0112345678', Feeder: 'F1' }),
      [{ line: 2, column: 'name', reason: 'must be one line, without control characters' }],
    ],
    [
      'no way to reach them',
      row({ Name: 'A', Feeder: 'F1' }),
      [{ line: 2, column: 'phone', reason: 'is empty, and so is email: the person could not be reached' }],
    ],
    [
      'a phone the target refuses',
      row({ Name: 'A', Phone: '12', Feeder: 'F1' }),
      [{ line: 2, column: 'phone', reason: 'must be a phone number (+94112345678, or a national number of LK)' }],
    ],
    ['a bad email', row({ Name: 'A', Email: 'nobody', Feeder: 'F1' }), [{ line: 2, column: 'email', reason: 'must be an email address' }]],
    [
      'an unknown language',
      row({ Name: 'A', Phone: '0112345678', Language: 'fr', Feeder: 'F1' }),
      [{ line: 2, column: 'language', reason: '"fr" is not a language of the service (en, si, ta)' }],
    ],
    [
      'neither feeder nor place',
      row({ Name: 'A', Phone: '0112345678' }),
      [{ line: 2, column: 'feeder', reason: 'is empty, and so is place: say where the person is' }],
    ],
    [
      'both feeder and place',
      row({ Name: 'A', Phone: '0112345678', Feeder: 'F1', Place: '7,80' }),
      [{ line: 2, column: 'place', reason: 'is given with a feeder: give one of them' }],
    ],
    [
      'a place that is not a point',
      row({ Name: 'A', Phone: '0112345678', Place: 'Kandy' }),
      [{ line: 2, column: 'place', reason: 'must be a latitude and a longitude, like "7.2906, 80.6337"' }],
    ],
    [
      'a latitude past 90',
      row({ Name: 'A', Phone: '0112345678', Place: '97, 80' }),
      [{ line: 2, column: 'place', reason: 'must be a latitude and a longitude, like "7.2906, 80.6337"' }],
    ],
  ])('refuses %s, naming the line and column', (_name, line, refused) => {
    expect(read(line)).toEqual({ subscriptions: [], refused });
  });

  it('reports every problem of every line, and asks for nothing from a line with one', () => {
    const result = read(row({ Name: 'Good', Phone: '0112345678', Feeder: 'F1' }), row({ Name: '', Email: 'x', Feeder: 'F1' }));
    expect(result.subscriptions.map((s) => s.line)).toEqual([2]);
    expect(result.refused).toEqual([
      { line: 3, column: 'name', reason: 'must not be blank' },
      { line: 3, column: 'email', reason: 'must be an email address' },
    ]);
  });

  it('refuses a header without the columns it needs, or with one it does not know', () => {
    expect(readRegister([], ['name', 'mobile'], { phone: voice, email }).refused).toEqual([
      { line: 1, column: 'mobile', reason: 'is not a column of a register (name, phone, email, language, feeder, place)' },
      { line: 1, column: 'phone', reason: 'is missing (or email)' },
      { line: 1, column: 'feeder', reason: 'is missing (or place)' },
    ]);
  });

  it('refuses a person twice (the same number on two lines), a name past 100 characters, a header named twice or alone', () => {
    expect(read(row({ Name: 'A', Phone: '0112345678', Feeder: 'F1' }), row({ Name: 'B', Phone: '011 234 5678', Feeder: 'F2' })).refused).toEqual([
      { line: 3, column: 'phone', reason: 'is on line 2 too: a person once' },
    ]);
    expect(read(row({ Name: 'x'.repeat(101), Phone: '0112345678', Feeder: 'F1' })).refused).toEqual([
      { line: 2, column: 'name', reason: 'is longer than 100 characters' },
    ]);
    expect(readRegister([], ['name', 'phone', 'Phone', 'feeder'], { phone: voice, email }).refused).toEqual([
      { line: 1, column: 'phone', reason: 'is named twice' },
    ]);
    expect(readRegister([], HEADER, { phone: voice, email }).refused).toEqual([{ line: 1, column: '', reason: 'is the only line: the register names nobody' }]);
  });

  it('refuses a phone when no target can call or text it', () => {
    expect(readRegister(lines([row({ Name: 'A', Phone: '0112345678', Feeder: 'F1' })]), HEADER, { phone: undefined, email }).refused).toEqual([
      { line: 2, column: 'phone', reason: 'cannot be used: no voice or text-message target is installed' },
    ]);
  });
});
