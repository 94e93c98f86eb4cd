import type { Knex } from 'knex';
import { pgArray as array } from '../plugin-api/pg-array.ts';
import type { UsageByKey } from './create-limits.ts';
import type { SubscriptionScope } from '../plugin-api/delivery-types.ts';
import { wherePlacesOnly, type SubscriptionFilter } from '../matching/index.ts';
import { placeCells } from '../places/index.ts';
import type { SubscriberPreferences } from '../plugin-api/preferences.ts';

type Db = Knex | Knex.Transaction;

export interface SubscriptionRecord {
  id: number;
  public_id: string;
  display_name: string;
  feed_id: string;
  filter_json: SubscriptionFilter;
  preferences: SubscriberPreferences;
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

/**
 * The cells a subscription is indexed by (a bigint[] literal), when its
 * "where" is places alone; null otherwise (it is read for every event).
 */
export function placeCellsOf(filter: SubscriptionFilter | null | undefined): string | null {
  return wherePlacesOnly(filter) ? `{${placeCells(filter!.places!).join(',')}}` : null;
}

const TABLE = 'notification_subscriptions';
export async function findSubscription(db: Db, publicId: string): Promise<SubscriptionRecord | undefined> {
  return db(TABLE).where({ public_id: publicId }).first();
}

/** The subscriptions one manage token manages (a person's joined alerts), oldest first. */
export async function subscriptionsOfToken(db: Db, manageTokenHash: string): Promise<SubscriptionRecord[]> {
  return db(TABLE).where({ manage_token_hash: manageTokenHash }).orderBy('id');
}

/** Every subscription of a provider to one destination, oldest first. */
export async function subscriptionsTo(db: Db, provider: string, destination: string): Promise<SubscriptionRecord[]> {
  return db(TABLE).where({ provider, destination }).orderBy('id');
}

export { activeAmong } from '../delivery/index.ts';

/** Changes what a subscriber may change (its name, its filter); answers the row as stored. */
export async function updateSubscription(
  db: Db,
  id: number,
  change: { display_name?: string; filter_json?: SubscriptionFilter; preferences?: SubscriberPreferences },
): Promise<SubscriptionRecord> {
  const values: Record<string, unknown> = { updated_at: db.fn.now() };
  if (change.display_name !== undefined) values.display_name = change.display_name;
  if (change.filter_json !== undefined) {
    values.filter_json = JSON.stringify(change.filter_json);
    values.place_cells = db.raw('?::bigint[]', [placeCellsOf(change.filter_json)]);
  }
  if (change.preferences !== undefined) values.preferences = JSON.stringify(change.preferences);
  const [row] = await db(TABLE).where({ id }).update(values).returning('*');
  return row as SubscriptionRecord;
}

export async function deleteSubscription(db: Db, id: number): Promise<void> {
  await db(TABLE).where({ id }).delete();
}

const NEW_COLUMNS = [
  'public_id',
  'display_name',
  'feed_id',
  'filter_json',
  'preferences',
  'provider',
  'destination',
  'scope',
  'is_active',
  'pending_verification',
  'owner_user_id',
  'created_ip',
  'manage_token_hash',
  'place_cells',
] as const;
// The arrays' types (the filter and the cells go as text and are cast in the statement).
const COLUMN_TYPES: Record<(typeof NEW_COLUMNS)[number], string> = {
  public_id: 'text',
  display_name: 'text',
  feed_id: 'text',
  filter_json: 'text',
  preferences: 'text',
  provider: 'text',
  destination: 'text',
  scope: 'text',
  is_active: 'boolean',
  pending_verification: 'boolean',
  owner_user_id: 'text',
  created_ip: 'text',
  manage_token_hash: 'text',
  place_cells: 'text',
};
const CASTS: Partial<Record<(typeof NEW_COLUMNS)[number], string>> = { filter_json: 'jsonb', preferences: 'jsonb', place_cells: 'bigint[]' };

/**
 * Serialises creates of the same addresses, users or destinations across
 * instances until the transaction ends. One statement; the locks are taken
 * in one global order (by their hash), so two batches never wait on each
 * other in a cycle.
 */
export async function lockCreatesOf(trx: Knex.Transaction, keys: readonly string[]): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest(?::text[]) AS k ORDER BY h) AS ordered', [
    array(keys.map(lockName)),
  ]);
}

/**
 * The same locks, without waiting: takes each one that is free (until the
 * transaction ends) and returns the keys another transaction holds. One
 * statement; it never waits, so it can be part of no wait cycle.
 */
export async function tryLockCreatesOf(trx: Knex.Transaction, keys: readonly string[]): Promise<Set<string>> {
  const result = await trx.raw('SELECT k, pg_try_advisory_xact_lock(hashtext(k)) AS taken FROM unnest(?::text[]) AS k', [
    array([...new Set(keys)].map(lockName)),
  ]);
  return new Set((result.rows as Array<{ k: string; taken: boolean }>).filter((row) => !row.taken).map((row) => row.k.slice(LOCK_PREFIX.length)));
}

const LOCK_PREFIX = 'subscription-create:';
const lockName = (key: string) => `${LOCK_PREFIX}${key}`;

/**
 * The usage the limits judge, for every address, user and destination of a
 * batch, in one statement: live anonymous subscriptions per address, creates
 * per address today, live subscriptions per user, verification emails per
 * destination today. Taken after lockCreatesOf, so no other create changes
 * these counts before the transaction ends.
 */
export async function usageOf(
  trx: Knex.Transaction,
  keys: { ips: readonly string[]; users: readonly string[]; addresses: readonly string[]; day: string },
): Promise<UsageByKey> {
  const result = await trx.raw(
    `SELECT 'liveByIp' AS kind, created_ip AS key, count(*)::int AS n FROM notification_subscriptions
      WHERE created_ip = ANY(?::text[]) AND owner_user_id IS NULL AND (is_active OR pending_verification) GROUP BY created_ip
     UNION ALL
     SELECT 'createdTodayByIp', client_ip, count FROM subscription_rate_counters WHERE client_ip = ANY(?::text[]) AND day = ?::date
     UNION ALL
     SELECT 'liveByUser', owner_user_id, count(*)::int FROM notification_subscriptions
      WHERE owner_user_id = ANY(?::text[]) AND (is_active OR pending_verification) GROUP BY owner_user_id
     UNION ALL
     SELECT 'verificationsToday', address_sha256, count FROM subscription_verification_counters WHERE address_sha256 = ANY(?::text[]) AND day = ?::date`,
    [array(keys.ips), array(keys.ips), keys.day, array(keys.users), array(keys.addresses), keys.day],
  );
  const usage = { liveByIp: new Map(), createdTodayByIp: new Map(), liveByUser: new Map(), verificationsToday: new Map() };
  for (const row of result.rows as Array<{ kind: keyof UsageByKey; key: string; n: number | string }>) usage[row.kind].set(row.key, Number(row.n));
  return usage;
}

/**
 * Stores a batch's accepted subscriptions and adds them to the daily
 * counters, in one statement: an anonymous create counts for its address,
 * a verification email for its destination's digest. Returns the rows in
 * the order given.
 */
export async function insertCreated(
  trx: Knex.Transaction,
  creates: ReadonlyArray<{ row: NewSubscription; verifiedAddress: string | null }>,
  day: string,
): Promise<SubscriptionRecord[]> {
  if (creates.length === 0) return [];
  const columns = NEW_COLUMNS.map((column) =>
    creates.map(({ row }) =>
      column === 'place_cells'
        ? placeCellsOf(row.filter_json)
        : column === 'filter_json' || column === 'preferences'
          ? JSON.stringify(row[column])
          : row[column],
    ),
  );
  const tally = (keys: Array<string | null>) => {
    const counts = new Map<string, number>();
    for (const key of keys) if (key !== null) counts.set(key, (counts.get(key) ?? 0) + 1);
    return [[...counts.keys()], [...counts.values()]];
  };
  const [createIps, createCounts] = tally(creates.map(({ row }) => (row.owner_user_id === null ? row.created_ip : null)));
  const [verified, verifiedCounts] = tally(creates.map(({ verifiedAddress }) => verifiedAddress));
  const result = await trx.raw(
    `WITH creates AS (
       INSERT INTO subscription_rate_counters (client_ip, day, count)
       SELECT ip, ?::date, n FROM unnest(?::text[], ?::int[]) AS c(ip, n)
       ON CONFLICT (client_ip, day) DO UPDATE SET count = subscription_rate_counters.count + excluded.count),
     verifications AS (
       INSERT INTO subscription_verification_counters (address_sha256, day, count)
       SELECT address, ?::date, n FROM unnest(?::text[], ?::int[]) AS v(address, n)
       ON CONFLICT (address_sha256, day) DO UPDATE SET count = subscription_verification_counters.count + excluded.count)
     INSERT INTO notification_subscriptions (${NEW_COLUMNS.join(', ')})
     SELECT ${NEW_COLUMNS.map((column) => (CASTS[column] ? `${column}::${CASTS[column]}` : column)).join(', ')}
       FROM unnest(${NEW_COLUMNS.map((column) => `?::${COLUMN_TYPES[column]}[]`).join(', ')}) AS n(${NEW_COLUMNS.join(', ')})
     RETURNING *`,
    [day, array(createIps), array(createCounts), day, array(verified), array(verifiedCounts), ...columns.map(array)],
  );
  const byPublicId = new Map((result.rows as SubscriptionRecord[]).map((row) => [row.public_id, row]));
  return creates.map(({ row }) => byPublicId.get(row.public_id)!);
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
