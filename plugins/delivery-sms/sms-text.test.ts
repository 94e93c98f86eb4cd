import { describe, expect, it } from 'vitest';
import { smsLength } from './sms-segments.ts';
import { verificationText } from './sms-text.ts';

describe('the verification text in each language', () => {
  it.each<[string | undefined, RegExp | null]>([
    [undefined, null],
    ['en', null],
    ['si', /[\u0D80-\u0DFF]/],
    ['ta', /[\u0B80-\u0BFF]/],
  ])('%s: the whole text (code, YES, STOP) fits two segments, in its script', (language, script) => {
    const text = verificationText('493817', 'Scheduled outages', 30, language);
    expect(text).toContain('493817');
    expect(text).toContain('YES');
    expect(text).toContain('STOP');
    expect(text).not.toContain('…');
    expect(smsLength(text).segments).toBeLessThanOrEqual(2);
    if (script) expect(text).toMatch(script);
    else
      expect(text).toBe('Your code for Scheduled outages alerts: 493817. Or reply YES to confirm this number. It expires in 30 minutes. Reply STOP to stop.');
  });
});
