import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import type { SubscriptionRecipient } from './delivery-types.ts';

export type Caller =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'user'; readonly userId: string; readonly admin: boolean };

export interface SubscriptionState extends SubscriptionRecipient {
  readonly isActive: boolean;
  /** An email subscription whose address is not verified yet. */
  readonly pendingVerification: boolean;
}

/** What a plugin may read and change of core's subscriptions (verification, unsubscribe). */
export interface SubscriptionAccess {
  find(publicId: string, trx?: Knex.Transaction): Promise<SubscriptionState | undefined>;
  /** Active: verified and receiving. Inactive: unsubscribed (no longer awaiting verification either). */
  setActive(subscriptionId: number, active: boolean, trx?: Knex.Transaction): Promise<void>;
}

/** Final outcomes of deliveries a transactional target took (ledger status `queued`). */
export interface LedgerAccess {
  recordQueuedOutcomes(
    outcomes: ReadonlyArray<{ ledgerId: number; kind: 'delivered' | 'failed'; reason?: string }>,
    trx?: Knex.Transaction,
  ): Promise<void>;
  /** An operator requeued these (failed) deliveries in the target: they are `queued` again until settled. */
  reopenQueued(ledgerIds: readonly number[], trx?: Knex.Transaction): Promise<void>;
}

export interface CallerAuth {
  /** The caller of a request: anonymous, a user or an admin; throws 401 for a bearer token that does not verify. */
  authenticate(request: FastifyRequest): Caller;
  /** Throws 401 for anonymous callers and 403 for non-admins. */
  requireAdmin(caller: Caller): void;
}
