/** A doubling pause stops growing here: a peer that keeps answering 429 without a Retry-After is asked again every 5 minutes. */
export const MAX_DOUBLED_PAUSE_SECONDS = 300;
/** A peer's own Retry-After is honoured up to an hour: a longer one (a typo, a quota of days) is asked again after that. */
export const MAX_RETRY_AFTER_SECONDS = 3600;
/** The first pause of a peer that says to slow down without saying for how long. */
export const FIRST_PAUSE_SECONDS = 1;

/** A lane's pause as the database keeps it. */
export interface LanePauseState {
  /** When the current or last pause ends (null: never paused). */
  readonly pausedUntil: Date | null;
  /** How long the last pause was, in seconds (0: none yet). */
  readonly lastSeconds: number;
}

/**
 * A lane told to slow down at `now`: how long to pause, or null to leave
 * the pause as it is. A Retry-After (seconds) is honoured, never
 * shortening a pause under way. Without one: the first pause is 1 s; a
 * pause asked for again within the last pause's own length after it ended
 * (the 429s repeat) is twice as long, at most 5 min; and answers that
 * arrive while paused (requests that were already on the wire) change
 * nothing, so one burst of 429s doubles nothing. Pure: the clock is an input.
 */
export function nextPause(state: LanePauseState, retryAfterSeconds: number | undefined, now: Date): { seconds: number; until: Date } | null {
  const current = state.pausedUntil && state.pausedUntil > now ? state.pausedUntil : null;
  if (retryAfterSeconds !== undefined) {
    const seconds = Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(0, retryAfterSeconds));
    const until = new Date(now.getTime() + seconds * 1000);
    if (current && current >= until) return null;
    return { seconds, until };
  }
  if (current) return null;
  const endedAgo = state.pausedUntil ? (now.getTime() - state.pausedUntil.getTime()) / 1000 : Infinity;
  const repeating = state.lastSeconds > 0 && endedAgo < state.lastSeconds;
  const seconds = repeating ? Math.min(MAX_DOUBLED_PAUSE_SECONDS, state.lastSeconds * 2) : FIRST_PAUSE_SECONDS;
  return { seconds, until: new Date(now.getTime() + seconds * 1000) };
}
