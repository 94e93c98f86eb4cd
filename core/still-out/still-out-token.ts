import { readSignedIdToken, signedIdToken } from '../http/signed-id.ts';

/** The token of a "still out?" link: the delivery it came in, and an HMAC of it under the service's key. */
export const stillOutToken = (key: string, ledgerId: number): string => signedIdToken(key, 'still-out', ledgerId);

/** The delivery a token names, or null when it is not one this service made. Pure. */
export const readStillOutToken = (key: string, token: string): number | null => readSignedIdToken(key, 'still-out', token);

/** The link a message carries: the page at /still-out, the token in the fragment (never sent to a server by the browser). */
export function stillOutLink(publicBaseUrl: string, key: string, ledgerId: number): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/still-out#${stillOutToken(key, ledgerId)}`;
}
