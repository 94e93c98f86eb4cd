import type { Knex } from 'knex';

import { WAITING_STATES, type LedgerState } from './ledger-states.ts';

export interface DeliveryListQuery {
  readonly status?: LedgerState;
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
  /** What the peer said of it later (`undelivered`), or that its destination is `gone`; null: nothing. */
  readonly outcome: 'undelivered' | 'gone' | null;
  readonly outcomeCode: string | null;
  readonly outcomeAt: string | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
/** A row that will be tried (again): when is worth showing. */
const WILL_TRY = new Set<string>([...WAITING_STATES, 'delivering']);

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
    .select(
      'l.id',
      's.public_id',
      'l.feed_id',
      'l.event_type',
      'l.source_key',
      'l.provider',
      'l.status',
      'l.attempts',
      'l.last_error',
      'l.created_at',
      'l.next_attempt_at',
      'l.delivered_at',
      'l.outcome',
      'l.outcome_code',
      'l.outcome_at',
    );
  // biome-ignore lint/suspicious/noExplicitAny: a raw row of the driver, its columns read one by one below
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
    nextAttemptAt: WILL_TRY.has(row.status) ? iso(row.next_attempt_at) : null,
    deliveredAt: iso(row.delivered_at),
    outcome: row.outcome ?? null,
    outcomeCode: row.outcome_code ?? null,
    outcomeAt: iso(row.outcome_at ?? null),
  }));
}
