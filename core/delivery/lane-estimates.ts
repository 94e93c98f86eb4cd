/** A lane as an estimate sees it. */
export interface LaneState {
  /** Deliveries already waiting in it (claimed, not yet handed to its peer). */
  readonly waiting: number;
  /** Its rate, messages a second; 0: none. */
  readonly ratePerSecond: number;
  /** What it sent lately, messages a second (null: nothing yet to judge by). */
  readonly recentPerSecond: number | null;
  /** Seconds until its pause ends (0: not paused). */
  readonly pausedForSeconds: number;
}

/**
 * Seconds until the last of `recipients` more deliveries is reached in a
 * lane, after what already waits there: at the lane's rate, or, for a lane
 * without one, at what it sent lately; after its pause. Null when the lane
 * has neither a rate nor anything sent lately to judge by. Whole seconds,
 * at least 1 when there is anyone to reach. Pure.
 */
export function estimatedSeconds(recipients: number, lane: LaneState): number | null {
  if (recipients <= 0) return 0;
  const perSecond = lane.ratePerSecond > 0 ? lane.ratePerSecond : lane.recentPerSecond;
  if (perSecond === null || perSecond <= 0) return null;
  return Math.max(1, Math.ceil(lane.pausedForSeconds + (lane.waiting + recipients) / perSecond));
}

/** One lane's outcomes in one minute. */
export interface LaneMinute {
  readonly minute: Date;
  readonly delivered: number;
  readonly failed: number;
}

/** How far back "lately" looks. */
export const RECENT_SECONDS = 300;

/**
 * What a lane sent lately, messages a second: its outcomes of the last
 * five minutes over the time since the first of those minutes began (at
 * least a minute, so one busy second is not taken for a rate). Null when
 * it sent nothing in that time. Pure: the clock is an input.
 */
export function recentPerSecond(minutes: readonly LaneMinute[], now: Date): number | null {
  const since = now.getTime() - RECENT_SECONDS * 1000;
  const recent = minutes.filter((m) => m.minute.getTime() + 60_000 > since && m.minute.getTime() <= now.getTime());
  const sent = recent.reduce((sum, m) => sum + m.delivered + m.failed, 0);
  if (sent === 0) return null;
  const first = Math.max(since, Math.min(...recent.map((m) => m.minute.getTime())));
  return sent / Math.max(60, (now.getTime() - first) / 1000);
}
