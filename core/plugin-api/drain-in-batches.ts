import type { Knex } from 'knex';

/**
 * Retention's loop, for core's tables and a plugin's: runs `step` (a
 * DELETE bounded to `limit` rows that returns how many it removed) until a
 * call removes fewer than a batch, so nothing is left, or the signal
 * aborts (shutdown). Bounded batches never hold long locks or large
 * transactions. Returns how many rows were removed in all.
 */
export async function drainInBatches(limit: number, signal: AbortSignal, step: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (let removed = limit; removed === limit && !signal.aborted; ) {
    removed = await step(limit);
    total += removed;
  }
  return total;
}

/**
 * Retention of one of a plugin's own tables: deletes its rows that match
 * `where` (SQL on the table's columns, its one `?` bound to `cutoff`), at
 * most `batchSize` a statement, until none is left or the signal aborts.
 * `table` and `where` are the plugin's own text, never input. Returns how
 * many rows were removed.
 */
export function deleteOlderThan(db: Knex, table: string, where: string, cutoff: Date, batchSize: number, signal: AbortSignal): Promise<number> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(table)) throw new Error('deleteOlderThan: the table name is a lower-case SQL identifier');
  return drainInBatches(batchSize, signal, async (limit) => {
    const result = await db.raw(`DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE ${where} LIMIT ?)`, [cutoff, limit]);
    return Number(result.rowCount ?? 0);
  });
}
