import { createHmac, timingSafeEqual } from 'node:crypto';

const mac = (key: string, ledgerId: number) => createHmac('sha256', key).update(`still-out\0${ledgerId}`).digest('base64url');

/** The token of a "still out?" link: the delivery it came in, and an HMAC of it under the service's key. */
export function stillOutToken(key: string, ledgerId: number): string {
  return `${ledgerId}.${mac(key, ledgerId)}`;
}

/** The delivery a token names, or null when it is not one this service made. Pure. */
export function readStillOutToken(key: string, token: string): number | null {
  const match = /^([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const ledgerId = Number(match[1]);
  if (!Number.isSafeInteger(ledgerId)) return null;
  const expected = Buffer.from(mac(key, ledgerId));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? ledgerId : null;
}

/** The link a message carries: the page at /still-out, the token in the fragment (never sent to a server by the browser). */
export function stillOutLink(publicBaseUrl: string, key: string, ledgerId: number): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/still-out#${stillOutToken(key, ledgerId)}`;
}
