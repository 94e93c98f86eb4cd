import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { answerTwiml, callTwiml, spokenDigits } from './twiml.ts';

const parse = (xml: string) => {
  expect(XMLValidator.validate(xml)).toBe(true);
  return new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', textNodeName: 'text', isArray: (name) => name === 'Say' }).parse(xml).Response;
};

describe('callTwiml', () => {
  const en = (text: string) => ({ text, language: 'en-GB' });

  it('says each line in its language, and asks for one key inside a Gather posted to its action', () => {
    const response = parse(
      callTwiml([{ text: 'மின் தடை', language: 'ta-IN' }], {
        prompt: en('Press 1 to confirm.'),
        action: 'https://a.example/api/voice/gather?x=1&y=2',
        noAnswer: en('Goodbye.'),
      }),
    );
    expect(response.Gather).toMatchObject({ numDigits: '1', method: 'POST', action: 'https://a.example/api/voice/gather?x=1&y=2' });
    expect(response.Gather.Say).toEqual([
      { language: 'ta-IN', text: 'மின் தடை' },
      { language: 'en-GB', text: 'Press 1 to confirm.' },
    ]);
    expect(response.Say).toEqual([{ language: 'en-GB', text: 'Goodbye.' }]);
  });

  it('keeps text from outside as text: no element, attribute or line is added', () => {
    const hostile = 'Out</Say><Dial>+19005551234</Dial><Say language="x">\nnext line';
    const xml = callTwiml([{ text: hostile, language: 'en-GB" foo="bar' }]);
    const response = parse(xml);
    expect(response.Dial).toBeUndefined();
    expect(response.Say).toEqual([{ language: 'en-GB" foo="bar', text: 'Out</Say><Dial>+19005551234</Dial><Say language="x"> next line' }]);
    expect(xml).not.toContain('\n');
  });

  it('without a key, only says', () => {
    const response = parse(callTwiml([en('Power is back.')]));
    expect(response.Gather).toBeUndefined();
    expect(response.Say).toEqual([{ language: 'en-GB', text: 'Power is back.' }]);
  });

  it('answers a key with one sentence and hangs up', () => {
    const response = parse(answerTwiml(en('Thank you.')));
    expect(response.Say).toEqual([{ language: 'en-GB', text: 'Thank you.' }]);
    expect(response).toHaveProperty('Hangup');
  });

  it('reads a code digit by digit', () => {
    expect(spokenDigits('047120')).toBe('0, 4, 7, 1, 2, 0');
  });
});
