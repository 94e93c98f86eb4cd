import type { Knex } from 'knex';
import { SETTLED_STATES, sqlList } from './ledger-states.ts';

/** Settled ledger rows created before the cutoff, at most `limit` of them (retention); returns how many were removed. */
export async function purgeSettled(db: Knex, cutoff: Date, limit: number): Promise<number> {
  const result = await db.raw(
    `DELETE FROM notification_delivery_ledger WHERE id IN (
       SELECT id FROM notification_delivery_ledger
        WHERE status IN (${sqlList(SETTLED_STATES)}) AND created_at < ?
        ORDER BY created_at LIMIT ?)`,
    [cutoff, limit],
  );
  return Number(result.rowCount ?? 0);
}

/** The lanes' per-minute counts older than the console's chart and the estimates look (two hours). */
export async function purgeLaneMinutes(db: Knex): Promise<number> {
  const result = await db.raw(`DELETE FROM delivery_lane_minutes WHERE minute < now() - interval '2 hours'`);
  return Number(result.rowCount ?? 0);
}
