import { describe, expect, it } from 'vitest';
import { callLanguage, parseVoices } from './voices.ts';

describe('voices: a call is read in the subscriber language where the gateway has a voice', () => {
  const voices = parseVoices('en=en-GB, ta=ta-IN');

  it.each([
    ['Tamil, which has a voice', 'ta', { code: 'ta', tag: 'ta-IN' }],
    ['Sinhala, which has none, in English', 'si', { code: 'en', tag: 'en-GB' }],
    ['no language chosen, in English', undefined, { code: 'en', tag: 'en-GB' }],
  ])('%s', (_name, language, expected) => {
    expect(callLanguage(voices, language)).toEqual(expected);
  });

  it('always has English, and leaves out what is not a language tag', () => {
    expect([...parseVoices('ta=ta-IN,si=<Say>,=x').entries()]).toEqual([
      ['ta', 'ta-IN'],
      ['en', 'en-US'],
    ]);
  });
});
