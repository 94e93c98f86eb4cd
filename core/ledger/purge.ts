import type { Knex } from 'knex';
import { SETTLED_STATES, sqlList } from './ledger-states.ts';

/**
 * Settled ledger rows created before the cutoff, at most `limit` of them
 * (retention); returns how many were removed. An alert whose confirmation
 * is still open (escalating, or on the "Not confirmed" list) is kept with it.
 */
export async function purgeSettled(db: Knex, cutoff: Date, limit: number): Promise<number> {
  const result = await db.raw(
    `DELETE FROM notification_delivery_ledger WHERE id IN (
       SELECT l.id FROM notification_delivery_ledger l
        WHERE l.status IN (${sqlList(SETTLED_STATES)}) AND l.created_at < ?
          AND NOT EXISTS (SELECT 1 FROM notification_confirmations c WHERE c.ledger_id = l.id AND c.state IN ('awaiting', 'unconfirmed'))
        ORDER BY l.created_at LIMIT ?)`,
    [cutoff, limit],
  );
  return Number(result.rowCount ?? 0);
}

/** The lanes' per-minute counts older than the console's chart and the estimates look (two hours). */
export async function purgeLaneMinutes(db: Knex): Promise<number> {
  const result = await db.raw(`DELETE FROM delivery_lane_minutes WHERE minute < now() - interval '2 hours'`);
  return Number(result.rowCount ?? 0);
}
