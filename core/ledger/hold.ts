import type { Knex } from 'knex';
import { pgArray as array } from '../plugin-api/pg-array.ts';

/**
 * Holds freshly claimed rows until their subscriber's quiet hours end (in
 * the claim's transaction, `now` on the service clock): `held`, never
 * leased, whatever the claim made of them; the catch-up release merges
 * them later.
 */
export async function holdForQuietHours(trx: Knex.Transaction, holds: ReadonlyArray<{ id: number; until: Date }>, now: Date): Promise<void> {
  if (holds.length === 0) return;
  await trx.raw(
    `UPDATE notification_delivery_ledger l
        SET status = 'held', held_at = ?::timestamptz, held_until = v.until, attempts = 0, lease_token = NULL, lease_until = NULL
       FROM unnest(?::bigint[], ?::timestamptz[]) AS v(id, until)
      WHERE l.id = v.id`,
    [now.toISOString(), array(holds.map((hold) => hold.id)), array(holds.map((hold) => hold.until.toISOString()))],
  );
}

/**
 * The subscriptions among these that still have held rows (their quiet
 * hours ended, or not, but no catch-up took them yet), and until when:
 * what they are sent next waits for that catch-up, so it never arrives
 * before the older news it would tell.
 */
export async function unreleasedHolds(trx: Knex.Transaction, subscriptionIds: readonly number[]): Promise<Map<number, Date>> {
  if (subscriptionIds.length === 0) return new Map();
  const result = await trx.raw(
    `SELECT subscription_id, max(held_until) AS until FROM notification_delivery_ledger
      WHERE status = 'held' AND subscription_id = ANY(?::bigint[]) GROUP BY subscription_id`,
    [array([...new Set(subscriptionIds)])],
  );
  return new Map(
    (result.rows as Array<{ subscription_id: string | number; until: Date | string }>).map((row) => [Number(row.subscription_id), new Date(row.until)]),
  );
}
