import type { Knex } from 'knex';
import { pgArray as array } from '../plugin-api/pg-array.ts';
import { TOLD_STATES, sqlList } from './ledger-states.ts';

type Db = Knex | Knex.Transaction;

/** What a subscriber was told of an item before a freshly claimed row of it. */
export interface ToldBefore {
  /** The event of the latest row of the item told (or on its way) to that subscription; null for none. */
  readonly lastEventId: number | null;
  /** Rows of the item told (or on their way) to that subscription in the window. */
  readonly count: number;
}

/** Criteria a claimed row is skipped by: the subscriber's budget for the item, or its feed's policy. */
export type SkipCriterion = 'budget' | 'feed' | 'confirmed';

/**
 * For each freshly claimed row, what its subscription was told of the
 * row's item before it (held, superseded, skipped and failed rows were
 * never told; a notice's reminders do not count), set-based: the latest told event, and how many were told
 * in the last `windowHours` on the database's clock.
 */
export async function toldBefore(
  db: Db,
  rows: ReadonlyArray<{ id: number; subscriptionId: number; itemKey: string }>,
  windowHours: number,
): Promise<Map<number, ToldBefore>> {
  if (rows.length === 0) return new Map();
  const result = await db.raw(
    `SELECT v.id, told.event_id, told.n
       FROM unnest(?::bigint[], ?::bigint[], ?::text[]) AS v(id, s, k)
       CROSS JOIN LATERAL (
         SELECT (array_agg(t.event_id ORDER BY t.id DESC))[1] AS event_id,
                count(*) FILTER (WHERE t.created_at > now() - make_interval(hours => ?))::int AS n
           FROM notification_delivery_ledger t
          WHERE t.subscription_id = v.s AND t.item_key = v.k AND t.id < v.id AND t.status IN (${sqlList(TOLD_STATES)})
            AND t.destination IS NULL AND t.source_key NOT LIKE '%#remind-%') told`,
    [array(rows.map((row) => row.id)), array(rows.map((row) => row.subscriptionId)), array(rows.map((row) => row.itemKey)), windowHours],
  );
  const told = new Map<number, ToldBefore>();
  for (const row of result.rows as Array<{ id: string | number; event_id: string | number | null; n: number }>) {
    told.set(Number(row.id), { lastEventId: row.event_id === null ? null : Number(row.event_id), count: Number(row.n) });
  }
  return told;
}

/** Claimed rows that are never sent: `skipped`, with the criterion and the reason in words, their lease (if any) dropped. */
export async function skipClaimed(db: Db, skips: ReadonlyArray<{ id: number; because: SkipCriterion; reason: string }>): Promise<void> {
  if (skips.length === 0) return;
  await db.raw(
    `UPDATE notification_delivery_ledger l
        SET status = 'skipped', skipped_because = v.because, last_error = v.reason, attempts = 0, lease_token = NULL, lease_until = NULL
       FROM unnest(?::bigint[], ?::text[], ?::text[]) AS v(id, because, reason)
      WHERE l.id = v.id`,
    [array(skips.map((skip) => skip.id)), array(skips.map((skip) => skip.because)), array(skips.map((skip) => skip.reason))],
  );
}
