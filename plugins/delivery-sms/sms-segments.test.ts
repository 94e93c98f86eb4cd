import { describe, expect, it } from 'vitest';
import { encodingOf, shortenToFit, smsLength } from './sms-segments.ts';
import { notificationText } from './sms-text.ts';

describe('smsLength', () => {
  it.each<[string, string, 'GSM-7' | 'UCS-2', number]>([
    ['empty', '', 'GSM-7', 0],
    ['160 GSM-7 characters: one segment', 'a'.repeat(160), 'GSM-7', 1],
    ['161 GSM-7 characters: two of 153', 'a'.repeat(161), 'GSM-7', 2],
    ['306 GSM-7 characters: two', 'a'.repeat(306), 'GSM-7', 2],
    ['307 GSM-7 characters: three', 'a'.repeat(307), 'GSM-7', 3],
    ['extension characters take two septets: 80 euros fill one segment', '€'.repeat(80), 'GSM-7', 1],
    ['81 euros need two', '€'.repeat(81), 'GSM-7', 2],
    ['an escape pair never straddles two parts', `${'a'.repeat(152)}€${'a'.repeat(10)}`, 'GSM-7', 2],
    ['accented GSM letters stay GSM-7', 'Über café à Niño', 'GSM-7', 1],
    ['one letter outside the alphabet makes it UCS-2', 'Über café à Niño ï', 'UCS-2', 1],
    ['70 UCS-2 units: one segment', 'ශ'.repeat(70), 'UCS-2', 1],
    ['71 Sinhala characters: two of 67', 'ශ'.repeat(71), 'UCS-2', 2],
    ['Tamil: 134 characters fit two parts', 'த'.repeat(134), 'UCS-2', 2],
    ['Tamil: 135 need three', 'த'.repeat(135), 'UCS-2', 3],
    ['an emoji is two units', '⚡'.repeat(1) + '😀'.repeat(35), 'UCS-2', 2],
    ['a surrogate pair never straddles two parts', `${'ශ'.repeat(66)}😀${'ශ'.repeat(10)}`, 'UCS-2', 2],
  ])('%s', (_name, text, encoding, segments) => {
    expect(smsLength(text)).toEqual({ encoding, segments });
  });

  it('tells GSM-7 from UCS-2 by every character', () => {
    expect(encodingOf('Power outage in Kandy {F12}')).toBe('GSM-7');
    expect(encodingOf('Power outage in Kandy – F12')).toBe('UCS-2'); // an en dash is not GSM
    expect(encodingOf('මහනුවර')).toBe('UCS-2');
  });
});

describe('shortenToFit', () => {
  it('leaves a text that fits alone', () => {
    expect(shortenToFit('Power is back in Kandy.', 1)).toBe('Power is back in Kandy.');
  });

  it('cuts a GSM-7 text after a whole word with ..., within the segments', () => {
    const text = 'Power outage '.repeat(30);
    const short = shortenToFit(text, 1);
    expect(smsLength(short)).toEqual({ encoding: 'GSM-7', segments: 1 });
    expect(short.endsWith('...')).toBe(true);
    expect(short.slice(0, -3)).toMatch(/(Power|outage)$/);
    expect(short.length).toBeGreaterThan(150);
  });

  it('cuts Sinhala on a word boundary with …, two segments at most', () => {
    const text = 'මහනුවර ප්‍රදේශයේ විදුලිය විසන්ධි කර ඇත '.repeat(10);
    const short = shortenToFit(text, 2);
    expect(smsLength(short)).toEqual({ encoding: 'UCS-2', segments: 2 });
    expect(short.endsWith('…')).toBe(true);
    expect(text.startsWith(short.slice(0, -1))).toBe(true);
    expect(text[short.length - 1]).toBe(' ');
  });

  it('never leaves half a surrogate pair when a text has no space to cut at', () => {
    const short = shortenToFit('😀'.repeat(100), 1);
    expect(smsLength(short).segments).toBe(1);
    expect(short).toBe(`${'😀'.repeat(34)}…`);
    expect(short.isWellFormed()).toBe(true);
  });
});

describe('notificationText', () => {
  const link = 'https://alerts.example/manage/abc';
  it('title, body and the manage link when all fit', () => {
    expect(notificationText('Power outage', 'Kandy, Peradeniya: off since 10:00.', link, 2)).toBe(`Power outage\nKandy, Peradeniya: off since 10:00.\n${link}`);
  });

  it('drops the link before it cuts the words, and then fits the segments', () => {
    const body = `Affected areas: ${'Kandy, Peradeniya, Katugastota, Gampola, '.repeat(8)}`;
    const text = notificationText('Power outage', body, link, 2);
    expect(text).not.toContain(link);
    expect(smsLength(text).segments).toBeLessThanOrEqual(2);
    expect(text.startsWith('Power outage\nAffected areas: Kandy')).toBe(true);
  });

  it('fits Tamil text in Sms__MaxSegments', () => {
    const text = notificationText('மின்வெட்டு', 'கண்டி பகுதியில் மின்சாரம் துண்டிக்கப்பட்டுள்ளது '.repeat(6), null, 3);
    expect(smsLength(text)).toEqual({ encoding: 'UCS-2', segments: 3 });
  });

  describe('the line asking to confirm is kept whole: what is before it is shortened', () => {
    const ask = 'Please confirm you got this alert: reply YES.';
    const long = `Planned work will cut power in your area. ${'Please make arrangements for the time without power. '.repeat(8)}`;
    it('a long notice keeps its ask at the end, within the segments', () => {
      const text = notificationText('Power will be cut Sat, 5 Dec 2026: Kandy', `${long}\n\n${ask}`, link, 2, ask);
      expect(text.endsWith(`...\n\n${ask}`)).toBe(true);
      expect(text.startsWith('Power will be cut Sat, 5 Dec 2026: Kandy\nPlanned work')).toBe(true);
      expect(text).not.toContain(link);
      expect(smsLength(text).segments).toBe(2);
    });

    it('in Tamil too (UCS-2: the ask in its words)', () => {
      const tamilAsk = 'இந்த எச்சரிக்கை கிடைத்ததை உறுதிப்படுத்த YES என்று பதிலளிக்கவும்.';
      const text = notificationText('மின்வெட்டு', `${'கண்டி பகுதியில் மின்சாரம் துண்டிக்கப்படும் '.repeat(6)}\n\n${tamilAsk}`, null, 3, tamilAsk);
      expect(text.endsWith(`…\n\n${tamilAsk}`)).toBe(true);
      expect(smsLength(text)).toEqual({ encoding: 'UCS-2', segments: 3 });
    });

    it('a short one goes whole, with the manage link, as before', () => {
      expect(notificationText('Power outage', `Kandy: off since 10:00.\n\n${ask}`, link, 2, ask)).toBe(
        `Power outage\nKandy: off since 10:00.\n\n${ask}\n${link}`,
      );
    });

    it('an ask that is not the body’s end is not trusted: the body is shortened as any', () => {
      const text = notificationText('Power outage', long, null, 1, ask);
      expect(text).not.toContain(ask);
      expect(smsLength(text).segments).toBe(1);
    });
  });
});
