import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { accented, pseudoMessage, pseudoText } from './pseudo-locale.ts';
import { localesFor } from './messages.ts';

const say = (pattern: string, values?: Record<string, string | number>) => String(new IntlMessageFormat(pseudoMessage(pattern), 'en-GB').format(values));

describe('the pseudo-locale en-XA', () => {
  it.each([
    ['Power restored', '[Þöŵéŕ ŕéšţöŕéð ······]'],
    ['Areas: {areas}', '[Åŕéåš: Kandy, Peradeniya ···]'],
    ['{count, plural, one {# update} other {# updates}} while away', '[3 ûþðåţéš ŵĥîļé åŵåý ····· ··]'],
    ['{place}', '[Kandy]'],
  ])('%s: its words accented, in brackets, 40 %% longer; the arguments as they are', (pattern, expected) => {
    expect(say(pattern, { areas: 'Kandy, Peradeniya', count: 3, place: 'Kandy' })).toBe(expected);
  });

  it("keeps a page word's @name placeholders and what is not a letter", () => {
    expect(accented('@tries tries left, 5 km — ok?')).toBe('@tries ţŕîéš ļéƒţ, 5 ķɱ — öķ?');
    expect(pseudoText('Hi')).toBe('[Ĥî ·]');
  });

  it('a text 40 % longer than English is at least that much longer in it', () => {
    const english = 'We sent a link to your address. Open it to confirm.';
    expect(pseudoText(english).length).toBeGreaterThanOrEqual(english.length * 1.4);
  });

  it('is offered outside production only', () => {
    expect(localesFor('production').map((locale) => locale.code)).toEqual(['en', 'si', 'ta']);
    expect(localesFor('development').map((locale) => locale.code)).toEqual(['en', 'si', 'ta', 'en-XA']);
    expect(localesFor(undefined).map((locale) => locale.code)).toContain('en-XA');
  });
});
