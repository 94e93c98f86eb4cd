import type { Knex } from 'knex';
import { pgArray as array } from '../plugin-api/pg-array.ts';

/** Which of these subscriptions are active now: one statement, the ids as one array (a lane asks before it delivers). */
export async function activeAmong(db: Knex | Knex.Transaction, subscriptionIds: readonly number[]): Promise<Set<number>> {
  if (subscriptionIds.length === 0) return new Set();
  const result = await db.raw('SELECT id FROM notification_subscriptions WHERE id = ANY(?::bigint[]) AND is_active', [array([...new Set(subscriptionIds)])]);
  return new Set((result.rows as Array<{ id: string | number }>).map((row) => Number(row.id)));
}
