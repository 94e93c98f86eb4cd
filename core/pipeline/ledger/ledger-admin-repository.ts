import type { Knex } from 'knex';

/**
 * The statuses a ledger row goes through. A row is claimed `pending`,
 * leased as `delivering`, and ends `delivered`, `failed` (final: only an
 * operator requeues it) or `superseded` (a coalesced Updated replaced by a
 * later one, or a waiting row a later event made pointless: a manifest's
 * `supersedes`); `retrying` waits for its next attempt; `queued` is held by
 * a transactional target (the email outbox) until it settles it delivered
 * or failed. `held` waits for the end of its subscriber's quiet hours; it
 * then becomes `merged` into one catch-up row (`CatchUp`), which is
 * delivered like any other.
 */
export const LEDGER_STATUSES = ['pending', 'delivering', 'retrying', 'queued', 'delivered', 'failed', 'superseded', 'held', 'merged'] as const;
export type LedgerStatus = (typeof LEDGER_STATUSES)[number];

export interface DeliveryListQuery {
  readonly status?: LedgerStatus;
  readonly feedId?: string;
  readonly limit: number;
  /** Keyset cursor: rows older (smaller id) than this one. */
  readonly beforeId?: number;
}

export interface DeliveryListItem {
  readonly id: number;
  readonly subscriptionId: string;
  readonly feedId: string;
  readonly eventType: string;
  readonly sourceKey: string;
  readonly provider: string;
  readonly status: string;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly createdAt: string;
  readonly nextAttemptAt: string | null;
  readonly deliveredAt: string | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const WAITING = new Set(['pending', 'retrying', 'delivering']);

/**
 * Ledger rows newest first, one page at a time by keyset (id below the
 * cursor): a page costs the same on the millionth row as on the first.
 * Failed rows page through their own partial index. The destination is
 * left out: a push topic is its subscriber's capability.
 */
export async function listDeliveries(db: Knex, query: DeliveryListQuery): Promise<DeliveryListItem[]> {
  const rows = await db('notification_delivery_ledger as l')
    .join('notification_subscriptions as s', 's.id', 'l.subscription_id')
    .modify((builder) => {
      if (query.status) builder.where('l.status', query.status);
      if (query.feedId) builder.where('l.feed_id', query.feedId);
      if (query.beforeId !== undefined) builder.where('l.id', '<', query.beforeId);
    })
    .orderBy('l.id', 'desc')
    .limit(query.limit)
    .select('l.id', 's.public_id', 'l.feed_id', 'l.event_type', 'l.source_key', 'l.provider', 'l.status', 'l.attempts', 'l.last_error', 'l.created_at', 'l.next_attempt_at', 'l.delivered_at');
  return rows.map((row: Record<string, any>) => ({
    id: Number(row.id),
    subscriptionId: row.public_id,
    feedId: row.feed_id,
    eventType: row.event_type,
    sourceKey: row.source_key,
    provider: row.provider,
    status: row.status,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    createdAt: iso(row.created_at)!,
    nextAttemptAt: WAITING.has(row.status) ? iso(row.next_attempt_at) : null,
    deliveredAt: iso(row.delivered_at),
  }));
}

export interface RequeueRequest {
  /** Providers whose target delivers directly (push); a transactional target's rows are requeued in it (the email outbox). */
  readonly providers: readonly string[];
  readonly ids?: readonly number[];
  readonly feedId?: string;
}

/**
 * Failed deliveries (these ids, or all, of a feed or every feed) of active
 * subscriptions back to pending with a fresh count of attempts, due now.
 * Returns the ids requeued.
 */
export async function requeueFailedDeliveries(trx: Knex.Transaction, request: RequeueRequest): Promise<number[]> {
  if (request.providers.length === 0) return [];
  const rows: Array<{ id: number | string }> = await trx('notification_delivery_ledger')
    .where('status', 'failed')
    .whereIn('provider', [...request.providers])
    .whereIn('subscription_id', trx('notification_subscriptions').select('id').where('is_active', true))
    .modify((builder) => {
      if (request.ids) builder.whereIn('id', [...request.ids]);
      if (request.feedId) builder.where('feed_id', request.feedId);
    })
    .update({ status: 'pending', attempts: 0, next_attempt_at: trx.fn.now(), last_error: null, lease_token: null, lease_until: null })
    .returning('id');
  return rows.map((row) => Number(row.id));
}
