import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The tokens in email links.
 *
 * Verification: random (256 bits), single-use, expiring; only its SHA-256
 * is stored, so the table alone cannot activate anything.
 *
 * Unsubscribe: one per subscription, reusable, and needed in every
 * notification email long after the subscription was created, so it cannot
 * be a random value kept only as a hash. It is an HMAC of the
 * subscription's public id under a key made by the plugin's migration and
 * kept in the database: nothing per subscription is stored, every instance
 * computes the same link, and a forged one needs the key. (Whoever can read
 * the key can read and change the subscriptions table itself.)
 */
export function newVerificationToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function unsubscribeToken(key: string, publicId: string): string {
  return createHmac('sha256', key).update(`unsubscribe\0${publicId}`).digest('base64url');
}

export function isUnsubscribeToken(key: string, publicId: string, token: string): boolean {
  const expected = Buffer.from(unsubscribeToken(key, publicId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Links the emails carry, under PublicBaseUrl. */
export function subscriptionLink(baseUrl: string, publicId: string, action: 'verify' | 'unsubscribe', token: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}/api/notification-subscriptions/${encodeURIComponent(publicId)}/${action}?token=${encodeURIComponent(token)}`;
}
