import type { Knex } from 'knex';
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
const live = (query: Knex.QueryBuilder) => query.where((q) => q.where('is_active', true).orWhere('pending_verification', true));

export async function insertSubscription(db: Db, row: NewSubscription): Promise<SubscriptionRecord> {
  const [created] = await db(TABLE).insert({ ...row, filter_json: JSON.stringify(row.filter_json) }).returning('*');
  return created;
}

export async function findSubscription(db: Db, publicId: string): Promise<SubscriptionRecord | undefined> {
  return db(TABLE).where({ public_id: publicId }).first();
}

export async function deleteSubscription(db: Db, id: number): Promise<void> {
  await db(TABLE).where({ id }).delete();
}

export async function countLiveByIp(db: Db, ip: string): Promise<number> {
  const [row] = await live(db(TABLE).where({ created_ip: ip, owner_user_id: null })).count({ n: '*' });
  return Number(row.n);
}

export async function countLiveByUser(db: Db, userId: string): Promise<number> {
  const [row] = await live(db(TABLE).where({ owner_user_id: userId })).count({ n: '*' });
  return Number(row.n);
}

export async function createdToday(db: Db, ip: string, day: string): Promise<number> {
  const row = await db('subscription_rate_counters').where({ client_ip: ip, day }).first();
  return row ? Number(row.count) : 0;
}

export async function countCreate(db: Db, ip: string, day: string): Promise<void> {
  await db.raw(
    `INSERT INTO subscription_rate_counters (client_ip, day, count) VALUES (?, ?, 1)
     ON CONFLICT (client_ip, day) DO UPDATE SET count = subscription_rate_counters.count + 1`,
    [ip, day],
  );
}

/** Serialises creates of one address or user across instances until the transaction ends. */
export async function lockCreatesOf(trx: Knex.Transaction, key: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`subscription-create:${key}`]);
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
