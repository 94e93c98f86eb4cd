/** When a failed delivery attempt may be tried again: pure, the clock and randomness are inputs. */
export interface RetrySettings {
  baseSeconds: number;
  maxSeconds: number;
  maxAttempts: number;
}

export const DEFAULT_RETRY: RetrySettings = { baseSeconds: 5, maxSeconds: 3600, maxAttempts: 10 };

/** Exponential backoff with ±20 % jitter, in seconds: base · 2^(attempt-1), capped at maxSeconds. */
export function backoffSeconds(attempt: number, random: number, settings: RetrySettings): number {
  const exponential = Math.min(settings.maxSeconds, settings.baseSeconds * 2 ** Math.max(0, attempt - 1));
  return exponential * (0.8 + 0.4 * Math.min(1, Math.max(0, random)));
}

/**
 * When attempt `attempt` may be followed by another (backoffSeconds later).
 * Returns null when the attempts are spent (the delivery failed for good).
 * `notBefore` (a quota reset named by the target) wins when later.
 */
export function nextAttemptAt(attempt: number, now: Date, random: number, settings: RetrySettings = DEFAULT_RETRY, notBefore?: Date): Date | null {
  if (attempt >= settings.maxAttempts) return null;
  const backoff = new Date(now.getTime() + backoffSeconds(attempt, random, settings) * 1000);
  return notBefore && notBefore > backoff ? notBefore : backoff;
}
