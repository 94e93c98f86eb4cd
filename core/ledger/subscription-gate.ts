import type { Knex } from 'knex';

/**
 * The ledger keeps no foreign keys (each row's check against its
 * subscription and its event cost PostgreSQL about as much as the insert
 * itself): this gate is what keeps a row from outliving its subscription.
 *
 * - Every claim holds the gate shared for its transaction (`admitClaims`,
 *   a statement of its own, before the insert) and inserts only rows
 *   whose subscription still exists;
 * - a subscription is deleted holding it exclusively (`forgetSubscription`),
 *   with its rows.
 *
 * So a delete waits for the claims under way, and a claim that starts
 * after it sees the subscription gone: no interleaving leaves a row behind.
 * Events are removed only by retention, once no row and no fan-out names
 * them. `removeOrphans` is the check that this holds: retention runs it,
 * and it finds nothing unless a row was written around this module.
 */
const GATE_KEY = 7_324_001_001;

/** Holds the gate shared until the transaction ends: a subscription deleted from now on waits for this claim. */
export async function admitClaims(trx: Knex.Transaction): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock_shared(?::bigint)', [GATE_KEY]);
}

/** Deletes a subscription and its ledger rows (their logged attempts go with them), holding the gate exclusively. */
export async function forgetSubscription(trx: Knex.Transaction, subscriptionId: number): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(?::bigint)', [GATE_KEY]);
  await trx.raw('DELETE FROM notification_delivery_ledger WHERE subscription_id = ?', [subscriptionId]);
  await trx.raw('DELETE FROM notification_subscriptions WHERE id = ?', [subscriptionId]);
}

/** The consistency check: removes up to `limit` rows whose subscription or event is gone, and returns how many (none, unless written around the ledger). */
export async function removeOrphans(db: Knex, limit: number): Promise<number> {
  const result = await db.raw(
    `DELETE FROM notification_delivery_ledger WHERE id IN (
       SELECT l.id FROM notification_delivery_ledger l
        WHERE NOT EXISTS (SELECT 1 FROM notification_subscriptions s WHERE s.id = l.subscription_id)
           OR NOT EXISTS (SELECT 1 FROM notification_events e WHERE e.id = l.event_id)
        LIMIT ?)`,
    [limit],
  );
  return Number(result.rowCount ?? 0);
}
