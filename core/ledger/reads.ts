import type { Knex } from 'knex';
import { pgArray as array } from '../plugin-api/pg-array.ts';

/** Each part of a lane's backlog is counted up to this many rows: the read stays bounded however far behind delivery is. */
export const BACKLOG_COUNT_CAP = 100_000;

/** What waits in one lane: rows claimed and not yet handed to the peer (waiting, or leased and being sent), and queued in a transactional target. */
export interface LaneBacklog {
  readonly provider: string;
  /** Waiting for an attempt (pending or retrying, due or not) or leased and being sent. */
  readonly waiting: number;
  /** Of those, due now. */
  readonly due: number;
  /** Handed to a transactional target (the email outbox) and not yet settled by it. */
  readonly queued: number;
  /** Seconds since the oldest of them was claimed (0 when none). */
  readonly oldestWaitingSeconds: number;
}

/**
 * The backlog of these lanes, on the database's clock: index scans of each
 * lane's waiting and leased rows, each stopped at BACKLOG_COUNT_CAP rows
 * (the oldest is read among those counted).
 */
export async function laneBacklogs(db: Knex, providers: readonly string[]): Promise<LaneBacklog[]> {
  if (providers.length === 0) return [];
  const result = await db.raw(
    `SELECT p.provider,
            coalesce(w.waiting, 0) AS waiting, coalesce(w.due, 0) AS due, coalesce(q.queued, 0) AS queued,
            coalesce(EXTRACT(EPOCH FROM now() - LEAST(w.oldest, q.oldest)), 0) AS oldest
       FROM unnest(?::text[]) AS p(provider)
       LEFT JOIN LATERAL (
         SELECT count(*) AS waiting, count(*) FILTER (WHERE due) AS due, min(created_at) AS oldest FROM (
           (SELECT created_at, next_attempt_at <= now() AS due FROM notification_delivery_ledger
             WHERE provider = p.provider AND status IN ('pending', 'retrying') LIMIT ?)
           UNION ALL
           (SELECT created_at, false FROM notification_delivery_ledger WHERE provider = p.provider AND status = 'delivering' LIMIT ?)) r
       ) w ON true
       LEFT JOIN LATERAL (
         SELECT count(*) AS queued, min(created_at) AS oldest FROM (
           SELECT created_at FROM notification_delivery_ledger WHERE provider = p.provider AND status = 'queued' LIMIT ?) r
       ) q ON true`,
    [array(providers), BACKLOG_COUNT_CAP, BACKLOG_COUNT_CAP, BACKLOG_COUNT_CAP],
  );
  return (result.rows as Array<Record<string, string | number>>).map((row) => ({
    provider: String(row.provider),
    waiting: Number(row.waiting),
    due: Number(row.due),
    queued: Number(row.queued),
    oldestWaitingSeconds: Math.max(0, Number(row.oldest)),
  }));
}
