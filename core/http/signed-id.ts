import { createHmac, timingSafeEqual } from 'node:crypto';

const mac = (key: string, purpose: string, id: number) => createHmac('sha256', key).update(`${purpose}\0${id}`).digest('base64url');

/** A link's token (pure): a row's id and an HMAC of it under the service's key, for one purpose (a token of one never passes for another). */
export function signedIdToken(key: string, purpose: string, id: number): string {
  return `${id}.${mac(key, purpose, id)}`;
}

/** The id a token names, or null when it is not one this service made for this purpose. Pure; compared in constant time. */
export function readSignedIdToken(key: string, purpose: string, token: string): number | null {
  const match = /^([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const id = Number(match[1]);
  if (!Number.isSafeInteger(id)) return null;
  const expected = Buffer.from(mac(key, purpose, id));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
