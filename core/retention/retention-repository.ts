import type { Knex } from 'knex';

/**
 * The statements of core's retention, each bounded to `limit` rows so a
 * run never holds long locks or large transactions; each returns how many
 * rows it removed (0: nothing is left).
 */

/** Events created before the cutoff whose fan-out is done in every lane, not held for an operator, and that no ledger row references any more. */
export async function deleteUnreferencedEvents(db: Knex, cutoff: Date, limit: number): Promise<number> {
  const result = await db.raw(
    `DELETE FROM notification_events WHERE id IN (
       SELECT e.id FROM notification_events e
        WHERE e.created_at < ? AND e.hold_status IS DISTINCT FROM 'held'
          AND NOT EXISTS (SELECT 1 FROM notification_fanouts f WHERE f.event_id = e.id)
          AND NOT EXISTS (SELECT 1 FROM notification_delivery_ledger l WHERE l.event_id = e.id)
        ORDER BY e.created_at LIMIT ?)`,
    [cutoff, limit],
  );
  return Number(result.rowCount ?? 0);
}

/** The daily counters of the create limits, once their day is over (they only ever count today). */
export async function deletePastCounters(db: Knex, today: string): Promise<number> {
  let removed = 0;
  for (const table of ['subscription_rate_counters', 'subscription_verification_counters']) {
    const result = await db.raw(`DELETE FROM ?? WHERE day < ?::date`, [table, today]);
    removed += Number(result.rowCount ?? 0);
  }
  return removed;
}

/** Signed-out console sessions past any sign-in's longest life (Console__SessionHours is at most 24): their cookies expired anyway. */
export async function deleteEndedConsoleSessions(db: Knex, now: Date): Promise<number> {
  const result = await db.raw('DELETE FROM console_ended_sessions WHERE ended_at < ?', [new Date(now.getTime() - 25 * 3600 * 1000)]);
  return Number(result.rowCount ?? 0);
}
