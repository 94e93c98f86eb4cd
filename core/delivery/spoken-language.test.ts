import { describe, expect, it } from 'vitest';
import { inLanguageOf } from './spoken-language.ts';

describe('inLanguageOf: a message is written in a language its target can present', () => {
  it.each([
    ['a target that presents every language keeps the choice', { language: 'si' }, undefined, { language: 'si' }],
    ['a language the target has keeps it', { language: 'ta' }, ['en', 'ta'], { language: 'ta' }],
    [
      'a language the target lacks becomes English, the rest kept',
      { language: 'si', timeZone: 'Asia/Colombo' },
      ['en', 'ta'],
      { language: 'en', timeZone: 'Asia/Colombo' },
    ],
    ['no choice stays no choice', {}, ['en'], {}],
    ['no preferences stay none', null, ['en'], null],
  ])('%s', (_name, preferences, spoken, expected) => {
    expect(inLanguageOf(preferences, spoken)).toEqual(expected);
  });
});
