import type { Knex } from 'knex';
import { pgArray as array } from '../plugin-api/pg-array.ts';
import type { QueuedOutcome } from '../plugin-api/core-ports.ts';
import { COUNT_MINUTE, LOG_ATTEMPTS } from './settle.ts';

type Db = Knex | Knex.Transaction;

/** Hands leased rows to a transactional target: `queued` until the target settles them. Returns how many this lease still held. */
export async function markQueued(trx: Knex.Transaction, token: string, ids: readonly number[]): Promise<number> {
  const result = await trx.raw(
    `UPDATE notification_delivery_ledger SET status = 'queued', lease_token = NULL, lease_until = NULL, last_error = NULL
      WHERE id = ANY(?::bigint[]) AND lease_token = ?`,
    [array(ids), token],
  );
  return Number(result.rowCount ?? result.affectedRows ?? 0);
}

/** A settled row as the metrics are told of it: its provider, outcome and its event's age at delivery. */
export interface QueuedSettlement {
  readonly provider: string;
  readonly status: 'delivered' | 'failed';
  readonly latencySeconds: number | null;
}

/**
 * A transactional target's final word on rows it took (`queued`; others
 * are left alone), in its transaction when given. With `observe`, the
 * settled rows come back with their event's age (metrics), and only then
 * is the event joined.
 */
export async function settleQueued(db: Db, outcomes: readonly QueuedOutcome[], observe: boolean): Promise<QueuedSettlement[]> {
  if (outcomes.length === 0) return [];
  const bindings = [array(outcomes.map((o) => o.ledgerId)), array(outcomes.map((o) => o.kind)), array(outcomes.map((o) => o.reason ?? null))];
  const result = await db.raw(
    `WITH s AS (
       UPDATE notification_delivery_ledger l
          SET status = v.status, last_error = v.err, delivered_at = CASE WHEN v.status = 'delivered' THEN now() ELSE l.delivered_at END
         FROM unnest(?::bigint[], ?::text[], ?::text[]) AS v(id, status, err)
        WHERE l.id = v.id AND l.status = 'queued'
        RETURNING l.id, l.provider, l.status, l.attempts, l.last_error, l.event_id, l.delivered_at),
     counted AS (${COUNT_MINUTE}),
     logged AS (${LOG_ATTEMPTS})
     ${
       observe
         ? 'SELECT s.provider, s.status, EXTRACT(EPOCH FROM s.delivered_at - e.created_at) AS seconds FROM s JOIN notification_events e ON e.id = s.event_id'
         : 'SELECT s.provider, s.status, NULL AS seconds FROM s'
     }`,
    bindings,
  );
  const rows = result.rows as Array<{ provider: string; status: 'delivered' | 'failed'; seconds: string | number | null }>;
  return rows.map((row) => ({ provider: row.provider, status: row.status, latencySeconds: row.seconds === null ? null : Number(row.seconds) }));
}

/** An operator requeued these failed deliveries in their transactional target: `queued` again until it settles them. */
export async function reopenQueued(db: Db, ledgerIds: readonly number[]): Promise<void> {
  if (ledgerIds.length === 0) return;
  await db('notification_delivery_ledger')
    .whereRaw('id = ANY(?::bigint[])', [array(ledgerIds)])
    .where({ status: 'failed' })
    .update({ status: 'queued', last_error: null });
}
