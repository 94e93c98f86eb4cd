import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import { Errors } from '../errors.ts';
import { manageTokenOf, type Caller } from '../http/caller-auth.ts';
import type { SubscriptionAccess, SubscriptionState } from '../plugin-api/core-ports.ts';
import { pgArray as array } from '../plugin-api/pg-array.ts';
import { toRecipient } from '../delivery/index.ts';
import { activeAmong, findSubscription, subscriptionsTo, type SubscriptionRecord } from './subscription-repository.ts';
import { authorizeAccess } from './subscription-policy.ts';

const stateOf = (row: SubscriptionRecord): SubscriptionState => ({
  ...toRecipient(row.id, row),
  isActive: row.is_active,
  pendingVerification: row.pending_verification,
});

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
