import type { Knex } from 'knex';
import type { UsageCounts } from './create-limits.ts';
import type { SubscriptionScope } from '../plugin-api/delivery-types.ts';
import type { SubscriptionFilter } from '../pipeline/subscription-filter.ts';

type Db = Knex | Knex.Transaction;

export interface SubscriptionRecord {
  id: number;
  public_id: string;
  display_name: string;
  feed_id: string;
  filter_json: SubscriptionFilter;
  provider: string;
  destination: string;
  scope: SubscriptionScope;
  is_active: boolean;
  pending_verification: boolean;
  owner_user_id: string | null;
  created_ip: string | null;
  manage_token_hash: string | null;
  created_at: Date;
}

export type NewSubscription = Omit<SubscriptionRecord, 'id' | 'created_at'>;

const TABLE = 'notification_subscriptions';
export async function findSubscription(db: Db, publicId: string): Promise<SubscriptionRecord | undefined> {
  return db(TABLE).where({ public_id: publicId }).first();
}

/** Which of these subscriptions are active now: one statement, the ids as one array. */
export async function activeAmong(db: Db, subscriptionIds: readonly number[]): Promise<Set<number>> {
  if (subscriptionIds.length === 0) return new Set();
  const result = await db.raw('SELECT id FROM notification_subscriptions WHERE id = ANY(?::bigint[]) AND is_active', [[...new Set(subscriptionIds)] as unknown as Knex.Value]);
  return new Set((result.rows as Array<{ id: string | number }>).map((row) => Number(row.id)));
}

export async function deleteSubscription(db: Db, id: number): Promise<void> {
  await db(TABLE).where({ id }).delete();
}

const NEW_COLUMNS = [
  'public_id', 'display_name', 'feed_id', 'filter_json', 'provider', 'destination', 'scope', 'is_active', 'pending_verification',
  'owner_user_id', 'created_ip', 'manage_token_hash',
] as const;

/**
 * One statement: the usage the limits judge (as it was before this create)
 * and the new row with its daily counters. The caller judges the usage and
 * rolls the transaction back on a breach, so nothing stays; it holds the
 * address's (or user's) lock first, so the counts cannot race.
 */
export async function insertCounting(
  trx: Knex.Transaction,
  row: NewSubscription,
  counters: { day: string; countCreate: boolean; verifiedAddress: string | null },
): Promise<{ created: SubscriptionRecord; usage: UsageCounts }> {
  const values = NEW_COLUMNS.map((column) => (column === 'filter_json' ? JSON.stringify(row.filter_json) : row[column]));
  const result = await trx.raw(
    `WITH usage AS (
       SELECT (SELECT count(*) FROM notification_subscriptions
                WHERE created_ip = ? AND owner_user_id IS NULL AND (is_active OR pending_verification)) AS live_by_ip,
              (SELECT COALESCE(max(count), 0) FROM subscription_rate_counters WHERE client_ip = ? AND day = ?) AS created_today,
              (SELECT count(*) FROM notification_subscriptions
                WHERE owner_user_id = ? AND (is_active OR pending_verification)) AS live_by_user,
              (SELECT COALESCE(max(count), 0) FROM subscription_verification_counters WHERE address_sha256 = ? AND day = ?) AS verifications_today),
     created AS (
       INSERT INTO notification_subscriptions (${NEW_COLUMNS.join(', ')})
       VALUES (${NEW_COLUMNS.map((column) => (column === 'filter_json' ? '?::jsonb' : '?')).join(', ')})
       RETURNING *),
     creates AS (
       INSERT INTO subscription_rate_counters (client_ip, day, count) SELECT ?, ?, 1 WHERE ?::boolean
       ON CONFLICT (client_ip, day) DO UPDATE SET count = subscription_rate_counters.count + 1),
     verifications AS (
       INSERT INTO subscription_verification_counters (address_sha256, day, count) SELECT ?, ?, 1 WHERE ?::boolean
       ON CONFLICT (address_sha256, day) DO UPDATE SET count = subscription_verification_counters.count + 1)
     SELECT created.*, usage.* FROM created, usage`,
    [
      row.created_ip, row.created_ip, counters.day, row.owner_user_id, counters.verifiedAddress, counters.day,
      ...values,
      row.created_ip, counters.day, counters.countCreate,
      counters.verifiedAddress ?? '', counters.day, counters.verifiedAddress !== null,
    ],
  );
  const { live_by_ip, created_today, live_by_user, verifications_today, ...created } = result.rows[0];
  return {
    created: created as SubscriptionRecord,
    usage: {
      liveByIp: Number(live_by_ip),
      createdTodayByIp: Number(created_today),
      liveByUser: Number(live_by_user),
      verificationsToday: Number(verifications_today),
    },
  };
}

/** Serialises creates of one address, user or destination across instances until the transaction ends. */
export async function lockCreatesOf(trx: Knex.Transaction, keys: readonly string[]): Promise<void> {
  // One statement, the keys in a fixed order: two creates never wait on each other in a cycle.
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(k)) FROM (SELECT k FROM unnest(?::text[]) WITH ORDINALITY AS x(k, n) ORDER BY n) AS ordered', [
    keys.map((key) => `subscription-create:${key}`) as unknown as Knex.Value,
  ]);
}

/**
 * Takes the /test slot when the cooldown since the last test is over.
 * Returns 0 when taken, else the seconds left.
 */
export async function takeTestSlot(db: Db, id: number, cooldownSeconds: number): Promise<number> {
  const taken = await db.raw(
    `UPDATE notification_subscriptions SET last_test_at = now()
      WHERE id = ? AND (last_test_at IS NULL OR last_test_at <= now() - make_interval(secs => ?))
      RETURNING id`,
    [id, cooldownSeconds],
  );
  if (taken.rows.length === 1) return 0;
  const left = await db.raw(
    `SELECT GREATEST(1, CEIL(EXTRACT(EPOCH FROM (last_test_at + make_interval(secs => ?) - now()))))::int AS seconds
       FROM notification_subscriptions WHERE id = ?`,
    [cooldownSeconds, id],
  );
  return Number(left.rows[0]?.seconds ?? 1);
}
