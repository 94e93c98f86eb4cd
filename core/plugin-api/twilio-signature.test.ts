import { describe, expect, it } from 'vitest';
import { twilioSignature, validTwilioSignature } from './twilio-signature.ts';

// Twilio's published example (twilio.com/docs/usage/security, "Validating signatures from Twilio").
const TOKEN = '12345';
const URL = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const FIELDS = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675310', Digits: '1234', From: '+14158675310', To: '+18005551212' };

describe('twilioSignature', () => {
  it("gives Twilio's published signature for its published example", () => {
    expect(twilioSignature(TOKEN, URL, FIELDS)).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
  });

  it('accepts that signature and refuses any change to the URL, a field, the token or the signature', () => {
    const signature = 'GvWf1cFY/Q7PnoempGyD5oXAezc=';
    expect(validTwilioSignature(TOKEN, signature, URL, FIELDS)).toBe(true);
    expect(validTwilioSignature(TOKEN, signature, URL.replace('foo=1', 'foo=2'), FIELDS)).toBe(false);
    expect(validTwilioSignature(TOKEN, signature, URL, { ...FIELDS, Digits: '1235' })).toBe(false);
    expect(validTwilioSignature(TOKEN, signature, URL, { ...FIELDS, Extra: '' })).toBe(false);
    expect(validTwilioSignature('54321', signature, URL, FIELDS)).toBe(false);
    expect(validTwilioSignature(TOKEN, signature.slice(1), URL, FIELDS)).toBe(false);
    expect(validTwilioSignature(TOKEN, undefined, URL, FIELDS)).toBe(false);
    expect(validTwilioSignature(TOKEN, '', URL, FIELDS)).toBe(false);
  });
});
