import type { Knex } from 'knex';
import type { LedgerAccess, SubscriptionAccess } from '../plugin-api/core-services.ts';
import { toRecipient } from '../pipeline/recipient.ts';
import { findSubscription } from './subscription-repository.ts';

/** Core's subscription table as plugins may see and change it. */
export function createSubscriptionAccess(db: Knex): SubscriptionAccess {
  return {
    async find(publicId, trx) {
      const row = await findSubscription(trx ?? db, publicId);
      return row && { ...toRecipient(row.id, row), isActive: row.is_active, pendingVerification: row.pending_verification };
    },
    async setActive(subscriptionId, active, trx) {
      await (trx ?? db)('notification_subscriptions')
        .where({ id: subscriptionId })
        .update({ is_active: active, pending_verification: false, updated_at: (trx ?? db).fn.now() });
    },
  };
}

/** Lets a transactional target record the final outcome of the rows it queued. */
export function createLedgerAccess(db: Knex): LedgerAccess {
  return {
    async recordQueuedOutcomes(outcomes, trx) {
      if (outcomes.length === 0) return;
      await (trx ?? db).raw(
        `UPDATE notification_delivery_ledger l
            SET status = v.status, last_error = v.err, delivered_at = CASE WHEN v.status = 'delivered' THEN now() ELSE l.delivered_at END
           FROM unnest(?::bigint[], ?::text[], ?::text[]) AS v(id, status, err)
          WHERE l.id = v.id AND l.status = 'queued'`,
        [
          outcomes.map((o) => o.ledgerId) as unknown as Knex.Value,
          outcomes.map((o) => o.kind) as unknown as Knex.Value,
          outcomes.map((o) => o.reason ?? null) as unknown as Knex.Value,
        ],
      );
    },
    async reopenQueued(ledgerIds, trx) {
      if (ledgerIds.length === 0) return;
      await (trx ?? db)('notification_delivery_ledger')
        .whereIn('id', [...ledgerIds])
        .where({ status: 'failed' })
        .update({ status: 'queued', last_error: null });
    },
  };
}
