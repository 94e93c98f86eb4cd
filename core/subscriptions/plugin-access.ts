import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import { Errors } from '../errors.ts';
import { manageTokenOf, type Caller } from '../http/caller-auth.ts';
import type { LedgerAccess, SubscriptionAccess, SubscriptionState } from '../plugin-api/core-ports.ts';
import { pgArray as array } from '../db/pg-array.ts';
import { toRecipient } from '../pipeline/delivery/recipient.ts';
import { activeAmong, findSubscription, subscriptionsTo, type SubscriptionRecord } from './subscription-repository.ts';
import { authorizeAccess } from './subscription-policy.ts';

const stateOf = (row: SubscriptionRecord): SubscriptionState => ({ ...toRecipient(row.id, row), isActive: row.is_active, pendingVerification: row.pending_verification });

/** Core's subscription table as plugins may see and change it; `authenticate` reads a request's caller. */
export function createSubscriptionAccess(db: Knex, authenticate: (request: FastifyRequest) => Caller): SubscriptionAccess {
  return {
    async find(publicId, trx) {
      const row = await findSubscription(trx ?? db, publicId);
      return row && stateOf(row);
    },
    async byDestination(provider, destination, trx) {
      return (await subscriptionsTo(trx ?? db, provider, destination)).map(stateOf);
    },
    async authorize(publicId, request: FastifyRequest) {
      const row = await findSubscription(db, publicId);
      if (!row) throw new Errors.NotFound(`subscription ${publicId} not found`);
      authorizeAccess(row, authenticate(request), manageTokenOf(request));
      return stateOf(row);
    },
    activeAmong: (subscriptionIds, trx) => activeAmong(trx ?? db, subscriptionIds),
    async setActive(subscriptionId, active, trx) {
      const ids = typeof subscriptionId === 'number' ? [subscriptionId] : [...subscriptionId];
      if (ids.length === 0) return;
      await (trx ?? db)('notification_subscriptions')
        .whereRaw('id = ANY(?::bigint[])', [array(ids)])
        .update({ is_active: active, pending_verification: false, updated_at: (trx ?? db).fn.now() });
    },
  };
}

/** What the ledger settled for a target: each row's provider, outcome and its event's age at delivery (metrics). */
export type LedgerSettledObserver = (rows: ReadonlyArray<{ provider: string; status: 'delivered' | 'failed'; latencySeconds: number | null }>) => void;

/** Lets a transactional target record the final outcome of the rows it queued. */
export function createLedgerAccess(db: Knex, onSettled?: LedgerSettledObserver): LedgerAccess {
  return {
    async settle(outcomes, trx) {
      if (outcomes.length === 0) return;
      const bindings = [array(outcomes.map((o) => o.ledgerId)), array(outcomes.map((o) => o.kind)), array(outcomes.map((o) => o.reason ?? null))];
      const set = `SET status = v.status, last_error = v.err, delivered_at = CASE WHEN v.status = 'delivered' THEN now() ELSE l.delivered_at END`;
      if (!onSettled) {
        await (trx ?? db).raw(
          `UPDATE notification_delivery_ledger l ${set}
             FROM unnest(?::bigint[], ?::text[], ?::text[]) AS v(id, status, err)
            WHERE l.id = v.id AND l.status = 'queued'`,
          bindings,
        );
        return;
      }
      // The event's age at delivery is what the observer is told (metrics): only then is the event joined.
      const result = await (trx ?? db).raw(
        `UPDATE notification_delivery_ledger l ${set}
           FROM unnest(?::bigint[], ?::text[], ?::text[]) AS v(id, status, err), notification_events e
          WHERE l.id = v.id AND l.status = 'queued' AND e.id = l.event_id
          RETURNING l.provider, l.status, EXTRACT(EPOCH FROM l.delivered_at - e.created_at) AS seconds`,
        bindings,
      );
      const rows = result.rows as Array<{ provider: string; status: 'delivered' | 'failed'; seconds: string | number | null }>;
      onSettled(rows.map((row) => ({ provider: row.provider, status: row.status, latencySeconds: row.seconds === null ? null : Number(row.seconds) })));
    },
    async reopen(ledgerIds, trx) {
      if (ledgerIds.length === 0) return;
      await (trx ?? db)('notification_delivery_ledger')
        .whereRaw('id = ANY(?::bigint[])', [array(ledgerIds)])
        .where({ status: 'failed' })
        .update({ status: 'queued', last_error: null });
    },
  };
}
