import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Twilio's request signature (pure): base64 HMAC-SHA1, keyed by the auth
 * token, over the full URL followed by each form field's name and value,
 * names sorted. What `X-Twilio-Signature` carries on every callback.
 */
export function twilioSignature(authToken: string, url: string, fields: Readonly<Record<string, string>>): string {
  const data = Object.keys(fields)
    .sort()
    .reduce((text, name) => text + name + fields[name], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Whether `signature` is Twilio's for this URL and fields (compared in constant time). */
export function validTwilioSignature(authToken: string, signature: string | undefined, url: string, fields: Readonly<Record<string, string>>): boolean {
  if (signature === undefined || signature === '') return false;
  const expected = Buffer.from(twilioSignature(authToken, url, fields));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
