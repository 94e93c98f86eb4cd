import type { Knex } from 'knex';
import { laneBacklogs } from '../ledger/index.ts';
import { estimatedSeconds, recentPerSecond, RECENT_SECONDS, type LaneMinute } from './lane-estimates.ts';
import { lanePauses } from './lane-store.ts';

/** A lane as operators see it (GET /api/admin/delivery-lanes, the console, the gauges). */
export interface LaneReport {
  readonly provider: string;
  /** Deliveries claimed and not yet handed to the peer (waiting, leased, or in a transactional target). */
  readonly waiting: number;
  readonly oldestWaitingSeconds: number;
  /** Its rate, messages a second across every instance; null: none. */
  readonly ratePerSecond: number | null;
  /** When its pause ends (ISO), or null when it is not paused. */
  readonly pausedUntil: string | null;
  /** Why it is paused (the peer's answer), or null. */
  readonly pausedBecause: string | null;
  /** Seconds until its pause ends (0: not paused). */
  readonly pausedForSeconds: number;
  /** What it sent lately, messages a second; null when nothing in the last five minutes. */
  readonly recentPerSecond: number | null;
}

/** Every lane's report, read from the database, on its clock (the same on every instance, whatever each one's clock says). */
export async function readLanes(db: Knex, rates: ReadonlyMap<string, number>): Promise<LaneReport[]> {
  const providers = [...rates.keys()];
  const [backlogs, pauses, minutes, clock] = await Promise.all([
    laneBacklogs(db, providers),
    lanePauses(db),
    laneMinutes(db, RECENT_SECONDS / 60 + 1),
    db.raw('SELECT now() AS now'),
  ]);
  const now = new Date(clock.rows[0].now);
  return backlogs.map((backlog) => {
    const pause = pauses.get(backlog.provider);
    const rate = rates.get(backlog.provider) ?? 0;
    return {
      provider: backlog.provider,
      waiting: backlog.waiting + backlog.queued,
      oldestWaitingSeconds: Math.round(backlog.oldestWaitingSeconds),
      ratePerSecond: rate > 0 ? rate : null,
      pausedUntil: pause?.pausedUntil?.toISOString() ?? null,
      pausedBecause: pause?.because ?? null,
      pausedForSeconds: pause?.pausedUntil ? Math.max(0, (pause.pausedUntil.getTime() - now.getTime()) / 1000) : 0,
      recentPerSecond: recentPerSecond(
        minutes.filter((m) => m.provider === backlog.provider),
        now,
      ),
    };
  });
}

/** Each lane's outcomes per minute over the last `sinceMinutes` minutes (oldest first), by the database's clock. */
export async function laneMinutes(db: Knex, sinceMinutes: number): Promise<Array<LaneMinute & { readonly provider: string }>> {
  const result = await db.raw(
    `SELECT provider, minute, delivered, failed FROM delivery_lane_minutes
      WHERE minute >= date_trunc('minute', now()) - make_interval(mins => ?) ORDER BY minute, provider`,
    [sinceMinutes],
  );
  return (result.rows as Array<{ provider: string; minute: Date | string; delivered: number | string; failed: number | string }>).map((row) => ({
    provider: row.provider,
    minute: new Date(row.minute),
    delivered: Number(row.delivered),
    failed: Number(row.failed),
  }));
}

/**
 * How long each provider's share of `byProvider` recipients takes, in
 * seconds (null: no rate and nothing sent lately to judge by): what the
 * console's preview and held events show.
 */
export function estimatesFor(byProvider: ReadonlyMap<string, number>, lanes: readonly LaneReport[]): Record<string, number | null> {
  const estimates: Record<string, number | null> = {};
  for (const [provider, recipients] of [...byProvider].sort(([a], [b]) => a.localeCompare(b))) {
    const lane = lanes.find((l) => l.provider === provider);
    estimates[provider] = lane
      ? estimatedSeconds(recipients, {
          waiting: lane.waiting,
          ratePerSecond: lane.ratePerSecond ?? 0,
          recentPerSecond: lane.recentPerSecond,
          pausedForSeconds: lane.pausedForSeconds,
        })
      : null;
  }
  return estimates;
}
