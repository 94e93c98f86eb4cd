import { describe, expect, it } from 'vitest';
import { icsText } from './ics-text.ts';

describe('icsText', () => {
  it.each([
    ['Home', 'Home'],
    ['Kandy, Peradeniya; F12', 'Kandy\\, Peradeniya\\; F12'],
    ['back\\slash', 'back\\\\slash'],
    ['Cal\r\nX-EVIL:1\r\nBEGIN:VEVENT', 'Cal X-EVIL:1 BEGIN:VEVENT'],
    ['tab\tand\u2028separator\u0085', 'tab and separator'],
    ['Stromausfall – ශ්‍රී 🌩️', 'Stromausfall – ශ්‍රී 🌩️'],
  ])('%j → %j', (input, expected) => {
    expect(icsText(input)).toBe(expected);
  });
});
