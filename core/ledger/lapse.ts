import type { Knex } from 'knex';
import type { LeaseOwner } from '../queue/lease-owner.ts';

/**
 * Lapses the leases an earlier run of this instance still held (it was
 * killed, or its grace ran out): those deliveries are due at once, first of
 * all, on every instance. Only once this run owns the name (it listens on
 * its port): a run still alive under the same name would lose its rows.
 * Returns how many rows were given back.
 */
export async function lapseEarlierRuns(db: Knex, owner: LeaseOwner): Promise<number> {
  const result = await db.raw(
    `UPDATE notification_delivery_ledger SET lease_until = now() - interval '1 millisecond'
      WHERE status = 'delivering' AND lease_until >= now() AND starts_with(lease_token, ?) AND NOT starts_with(lease_token, ?)`,
    [`${owner.name}/`, `${owner.name}/${owner.run}/`],
  );
  return result.rowCount ?? 0;
}
