import { describe, expect, it } from 'vitest';
import { findUnsafeString } from './unsafe-strings.ts';

const NUL = 'must not contain a NUL character';
const LONE = 'must not contain a lone UTF-16 surrogate (malformed Unicode)';

describe('findUnsafeString', () => {
  it.each([
    ['a plain string', 'Kandy', null],
    ['an emoji (a whole surrogate pair)', 'home \ud83c\udfe0', null],
    ['Sinhala, Arabic, right-to-left marks', 'මහනුවර \u0627\u0644 \u200f', null],
    ['numbers, booleans, null', { a: 1, b: true, c: null, d: 1e23 }, null],
    ['a NUL', 'a\u0000b', { path: 'body', problem: NUL }],
    ['a lone high surrogate', 'x\ud800', { path: 'body', problem: LONE }],
    ['a lone low surrogate', '\udc00x', { path: 'body', problem: LONE }],
    ['a reversed pair', '\udc00\ud800', { path: 'body', problem: LONE }],
    ['deep in a list', { filter: { feeders: ['F1', 'F\u00002'] } }, { path: 'body/filter/feeders/1', problem: NUL }],
    ['the first of two', { a: '\u0000', b: '\ud800' }, { path: 'body/a', problem: NUL }],
    ['in a property name', { filter: { 'x\u0000': 1 } }, { path: 'body/filter', problem: 'has a property name that contains a NUL character' }],
  ])('%s', (_name, value, expected) => {
    expect(findUnsafeString(value, 'body')).toEqual(expected);
  });

  it('walks 10,000 levels of nesting without exhausting the stack', () => {
    let value: unknown = '\u0000';
    for (let i = 0; i < 10_000; i += 1) value = [value];
    expect(findUnsafeString(value, 'body')?.problem).toBe(NUL);
  });
});
