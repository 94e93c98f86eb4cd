import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/** A 6-digit code, uniformly drawn (leading zeros kept). */
export const newVerificationCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Codes are stored hashed, bound to their subscription (one stolen hash opens nothing else). */
export const hashCode = (subscriptionId: number, code: string): string => createHash('sha256').update(`${subscriptionId}:${code}`).digest('hex');

export const MAX_CODE_TRIES = 5;

export type CodeCheck = 'ok' | 'wrong' | 'expired' | 'exhausted' | 'none';

export interface StoredCode {
  readonly codeHash: string | null;
  readonly expiresAt: Date | null;
  readonly tries: number;
}

/**
 * Judges a code against the stored one (pure): none sent yet, expired,
 * out of tries (5: this try would be the 6th), right or wrong.
 */
export function checkCode(stored: StoredCode | undefined, subscriptionId: number, given: string, now: Date): CodeCheck {
  if (!stored || stored.codeHash === null || stored.expiresAt === null) return 'none';
  if (stored.tries >= MAX_CODE_TRIES) return 'exhausted';
  if (stored.expiresAt.getTime() <= now.getTime()) return 'expired';
  const expected = Buffer.from(stored.codeHash, 'hex');
  const actual = Buffer.from(hashCode(subscriptionId, given.trim()), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? 'ok' : 'wrong';
}
