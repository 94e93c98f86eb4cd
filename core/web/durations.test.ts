import { describe, expect, it } from 'vitest';
import { aboutDuration, estimateWords } from './static/durations.js';

describe('durations and estimates in words (the console)', () => {
  it.each([
    [0.2, 'about 1 s'],
    [42, 'about 42 s'],
    [300, 'about 5 min'],
    [3599, 'about 60 min'],
    [3600, 'about 1 h'],
    [5400, 'about 1 h 30 min'],
  ])('%f s: %s', (seconds, words) => {
    expect(aboutDuration(seconds)).toBe(words);
  });

  it("names each channel in people's words, its count and its time, or says there is no estimate", () => {
    const names: Record<string, string> = { Sms: 'Text message', Push: 'Push notification' };
    expect(estimateWords({ Push: 12000, Sms: 5000 }, { Push: 2, Sms: 250 }, (p) => names[p] ?? p)).toBe(
      'Push notification: 12,000, about 2 s; Text message: 5,000, about 4 min',
    );
    expect(estimateWords({ Webhook: 3 }, { Webhook: null }, (p) => p)).toBe('Webhook: 3, no estimate yet');
  });
});

describe('durations in the words a page hands over', () => {
  it('says every part through its page words', () => {
    const words = (key: string) => `<${key}>`;
    expect(estimateWords({ Sms: 5 }, { Sms: 5400 }, (p) => p, words)).toBe('Sms: 5, <page.duration.about>');
    expect(estimateWords({ Sms: 5 }, { Sms: null }, (p) => p, words)).toBe('Sms: 5, <page.duration.noEstimate>');
  });
});
