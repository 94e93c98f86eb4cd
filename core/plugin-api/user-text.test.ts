import { describe, expect, it } from 'vitest';
import { plainLines, singleLine, stripBidiControls, withoutControls } from './user-text.ts';

describe('user text', () => {
  it.each([
    ['hdr\r\nBcc: victim@evil.org', 'hdr Bcc: victim@evil.org'],
    ['a\u0000b\u0007c\u0085d\u2028e', 'a b c d e'],
    ['  spaced\t\tout  ', 'spaced out'],
    ['Invoice\u202egpj.exe', 'Invoicegpj.exe'],
    ['\u2066isolated\u2069 \u202aembedded\u202c', 'isolated embedded'],
    ['\u0627\u0644\u0645\u0646\u0632\u0644 \u200f\u05d1\u05d9\u05ea', '\u0627\u0644\u0645\u0646\u0632\u0644 \u200f\u05d1\u05d9\u05ea'],
    ['Home 🏠', 'Home 🏠'],
  ])('singleLine(%j) = %j', (input, expected) => {
    expect(singleLine(input)).toBe(expected);
  });

  it.each([
    ['Feeder: F12\r\nAreas: Kandy\u0007\u000b', 'Feeder: F12\nAreas: Kandy'],
    ['one\rtwo\u2028three', 'one\ntwo\nthree'],
    ['keep\n\nparagraphs', 'keep\n\nparagraphs'],
    ['no\u202e override', 'no override'],
  ])('plainLines(%j) = %j', (input, expected) => {
    expect(plainLines(input)).toBe(expected);
  });

  it('withoutControls keeps the length of what it does not remove', () => {
    expect(withoutControls('a\nb\u202ec')).toBe('a bc');
    expect(stripBidiControls('\u202d\u202e')).toBe('');
  });
});
