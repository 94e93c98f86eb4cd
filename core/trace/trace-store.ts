import type { Knex } from 'knex';
import { EVENT_COLUMNS, eventOfRow, type EventColumns } from '../delivery/index.ts';
import type { SubscriptionFilter } from '../matching/index.ts';
import type { NotificationEvent } from '../plugin-api/feed-types.ts';

/** How many subscriptions a search answers at most. */
export const FOUND_LIMIT = 20;

/** A subscription as the trace shows it: never its destination (a push topic is its subscriber's key). */
export interface TracedSubscription extends Omit<SubscriptionSummary, 'createdAt'> {
  readonly id: number;
  readonly createdAt: Date;
  readonly filter: SubscriptionFilter;
  /** Whether they confirm what they get (preferences.confirm): only they get a notice to confirm. */
  readonly confirms: boolean;
}

/** What an answer shows of a subscription (its dates as ISO 8601). */
export interface SubscriptionSummary {
  readonly publicId: string;
  readonly displayName: string;
  readonly feedId: string;
  readonly provider: string;
  readonly scope: string;
  readonly isActive: boolean;
  readonly createdAt: string;
}

export const summaryOf = (subscription: TracedSubscription): SubscriptionSummary => ({
  publicId: subscription.publicId,
  displayName: subscription.displayName,
  feedId: subscription.feedId,
  provider: subscription.provider,
  scope: subscription.scope,
  isActive: subscription.isActive,
  createdAt: subscription.createdAt.toISOString(),
});

export interface StoredTraceEvent {
  readonly id: number;
  readonly createdAt: Date;
  /** Its hold for an operator: `held`, `discarded`, or null (never held, or released). */
  readonly hold: 'held' | 'discarded' | null;
  readonly event: NotificationEvent;
}

export interface TraceLedgerRow {
  readonly id: number;
  readonly eventId: number;
  readonly status: string;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly skippedBecause: string | null;
  readonly createdAt: Date;
  readonly deliveredAt: Date | null;
  readonly outcome: string | null;
  readonly outcomeCode: string | null;
  readonly outcomeAt: Date | null;
  readonly supersededBy: number | null;
  readonly mergedInto: number | null;
}

export interface LoggedAttempt {
  readonly ledgerId: number;
  readonly attempt: number;
  readonly status: string;
  readonly error: string | null;
  readonly at: Date;
}

const SUBSCRIPTION_COLUMNS = [
  'id',
  'public_id',
  'display_name',
  'feed_id',
  'provider',
  'scope',
  'is_active',
  'created_at',
  'filter_json',
  'preferences',
] as const;
// biome-ignore lint/suspicious/noExplicitAny: a raw row of the driver, read column by column
const subscriptionOf = (row: Record<string, any>): TracedSubscription => ({
  id: Number(row.id),
  publicId: row.public_id,
  displayName: row.display_name,
  feedId: row.feed_id,
  provider: row.provider,
  scope: row.scope,
  isActive: row.is_active === true,
  createdAt: new Date(row.created_at),
  filter: (row.filter_json ?? {}) as SubscriptionFilter,
  confirms: row.preferences?.confirm === true,
});

/**
 * What an operator may type to find a subscriber's destination as stored:
 * as typed, in lower case (email addresses), and without the spaces,
 * dashes and brackets people write phone numbers with.
 */
export function destinationCandidates(query: string): string[] {
  const typed = query.trim();
  const phone = typed.replace(/[\s().-]/g, '');
  return [...new Set([typed, typed.toLowerCase(), phone])].filter((candidate) => candidate !== '');
}

/** Subscriptions by public id, or by destination (email address, phone number, push topic), newest first. */
export async function findSubscriptions(db: Knex, query: string, providers: readonly string[]): Promise<TracedSubscription[]> {
  const candidates = destinationCandidates(query);
  if (candidates.length === 0) return [];
  const rows = await db('notification_subscriptions')
    .select(...SUBSCRIPTION_COLUMNS)
    .where('public_id', query.trim())
    .orWhere((builder) => builder.whereIn('provider', [...providers]).whereIn('destination', candidates))
    .orderBy('id', 'desc')
    .limit(FOUND_LIMIT);
  return rows.map(subscriptionOf);
}

export async function subscriptionByPublicId(db: Knex, publicId: string): Promise<TracedSubscription | undefined> {
  const row = await db('notification_subscriptions')
    .select(...SUBSCRIPTION_COLUMNS)
    .where({ public_id: publicId })
    .first();
  return row && subscriptionOf(row);
}

/** The feed's latest events, newest first. */
export async function latestEvents(db: Knex, feedId: string, limit: number): Promise<StoredTraceEvent[]> {
  const rows = (await db('notification_events')
    .select('id', 'created_at', 'hold_status', ...EVENT_COLUMNS)
    .where({ feed_id: feedId })
    .orderBy('id', 'desc')
    .limit(limit)) as Array<EventColumns & { id: string | number; created_at: Date | string; hold_status: string | null }>;
  return rows.map((row) => ({
    id: Number(row.id),
    createdAt: new Date(row.created_at),
    hold: row.hold_status === 'held' || row.hold_status === 'discarded' ? row.hold_status : null,
    event: eventOfRow(row),
  }));
}

const dateOrNull = (value: Date | string | null) => (value === null ? null : new Date(value));

/** A subscription's ledger rows of these events, with the logged attempts of each. */
export async function ledgerRowsOf(
  db: Knex,
  subscriptionId: number,
  eventIds: readonly number[],
): Promise<{ rows: TraceLedgerRow[]; attempts: LoggedAttempt[] }> {
  if (eventIds.length === 0) return { rows: [], attempts: [] };
  const found = await db('notification_delivery_ledger')
    .select(
      'id',
      'event_id',
      'status',
      'attempts',
      'last_error',
      'skipped_because',
      'created_at',
      'delivered_at',
      'outcome',
      'outcome_code',
      'outcome_at',
      'superseded_by',
      'merged_into',
    )
    .where({ subscription_id: subscriptionId })
    .whereIn('event_id', [...eventIds])
    .orderBy('id');
  // biome-ignore lint/suspicious/noExplicitAny: a raw row of the driver, read column by column
  const rows: TraceLedgerRow[] = found.map((row: Record<string, any>) => ({
    id: Number(row.id),
    eventId: Number(row.event_id),
    status: row.status,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    skippedBecause: row.skipped_because,
    createdAt: new Date(row.created_at),
    deliveredAt: dateOrNull(row.delivered_at),
    outcome: row.outcome,
    outcomeCode: row.outcome_code,
    outcomeAt: dateOrNull(row.outcome_at),
    supersededBy: row.superseded_by === null ? null : Number(row.superseded_by),
    mergedInto: row.merged_into === null ? null : Number(row.merged_into),
  }));
  if (rows.length === 0) return { rows, attempts: [] };
  const logged = await db('notification_delivery_attempts')
    .select('ledger_id', 'attempt', 'status', 'error', 'at')
    .whereIn(
      'ledger_id',
      rows.map((row) => row.id),
    )
    .orderBy(['ledger_id', 'attempt', 'at']);
  // biome-ignore lint/suspicious/noExplicitAny: a raw row of the driver, read column by column
  const attempts: LoggedAttempt[] = logged.map((row: Record<string, any>) => ({
    ledgerId: Number(row.ledger_id),
    attempt: Number(row.attempt),
    status: row.status,
    error: row.error,
    at: new Date(row.at),
  }));
  return { rows, attempts };
}
