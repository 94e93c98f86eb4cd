import type { Knex } from 'knex';

export interface RequeueRequest {
  /** Providers whose target delivers directly (push); a transactional target's rows are requeued in it (the email outbox). */
  readonly providers: readonly string[];
  readonly ids?: readonly number[];
  readonly feedId?: string;
  readonly eventId?: number;
}

/**
 * An operator's requeue: failed deliveries (these ids, or all, of an
 * event, a feed or every feed) of active subscriptions back to pending
 * with a fresh count of attempts, due now. Returns the ids requeued.
 */
export async function requeueFailed(trx: Knex.Transaction, request: RequeueRequest): Promise<number[]> {
  if (request.providers.length === 0) return [];
  const rows: Array<{ id: number | string }> = await trx('notification_delivery_ledger')
    .where('status', 'failed')
    .whereIn('provider', [...request.providers])
    .whereIn('subscription_id', trx('notification_subscriptions').select('id').where('is_active', true))
    .modify((builder) => {
      if (request.ids) builder.whereIn('id', [...request.ids]);
      if (request.feedId) builder.where('feed_id', request.feedId);
      if (request.eventId !== undefined) builder.where('event_id', request.eventId);
    })
    .update({ status: 'pending', attempts: 0, next_attempt_at: trx.fn.now(), last_error: null, lease_token: null, lease_until: null })
    .returning('id');
  return rows.map((row) => Number(row.id));
}
