import { describe, expect, it } from 'vitest';
import { readStillOutToken, stillOutLink, stillOutToken } from './still-out-token.ts';

const KEY = 'k'.repeat(43);

describe('"still out?" tokens', () => {
  it('name their delivery, and only under the key they were made with', () => {
    const token = stillOutToken(KEY, 4711);
    expect(readStillOutToken(KEY, token)).toBe(4711);
    expect(readStillOutToken('another key', token)).toBeNull();
  });

  it.each([
    ['another delivery under the same mac', () => stillOutToken(KEY, 4711).replace(/^4711/, '4712')],
    ['no mac', () => '4711.'],
    ['a short mac', () => stillOutToken(KEY, 4711).slice(0, -1)],
    ['no id', () => stillOutToken(KEY, 4711).replace(/^4711/, '')],
    ['a leading zero', () => `0${stillOutToken(KEY, 4711)}`],
    ['an id past 2^53', () => stillOutToken(KEY, 4711).replace(/^4711/, '9999999999999999')],
    ['line breaks', () => `${stillOutToken(KEY, 4711)}\n`],
    ['nothing', () => ''],
  ])('refuse %s', (_, make) => {
    expect(readStillOutToken(KEY, make())).toBeNull();
  });

  it('travel in the fragment of the page under PublicBaseUrl', () => {
    expect(stillOutLink('https://alerts.example.org/', KEY, 12)).toBe(`https://alerts.example.org/still-out#${stillOutToken(KEY, 12)}`);
  });
});
