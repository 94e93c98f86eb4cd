import { describe, expect, it } from 'vitest';
import { callWords, spokenNotification } from './call-words.ts';
import { parseVoices } from './voices.ts';

describe('call words', () => {
  const voices = parseVoices('en=en-GB,ta=ta-IN');

  it('speaks Tamil in the Tamil voice, and Sinhala, which has no voice, in English', () => {
    const ta = callWords(voices, 'ta');
    expect(ta.spoken(ta.t('call.goodbye'))).toEqual({ text: 'நன்றி, வணக்கம்.', language: 'ta-IN' });
    const si = callWords(voices, 'si');
    expect(si.spoken(si.t('call.goodbye'))).toEqual({ text: 'Goodbye.', language: 'en-GB' });
  });

  it('reads a notification without the lines that carry a link', () => {
    expect(
      spokenNotification(
        'Power outage',
        'Kandy is out.\nSince 08:15\nDetails: https://alerts.example/manage/abc\n\nNot over for you? Tell us: https://a.example/still-out#1.x',
      ),
    ).toBe('Power outage. Kandy is out. Since 08:15.');
  });
});
