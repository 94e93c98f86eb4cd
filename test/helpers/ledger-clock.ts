import type { Knex } from 'knex';

/**
 * Moves the database's clock forward by `seconds` as the delivery ledger
 * sees it: every time a ledger row holds (due, delivered, leased, held…)
 * moves back by that much, which to every `… <= now()` the ledger asks is
 * the same as the time passing. The columns are read from the table, so a
 * time column added later moves too. For tests: a cooldown or a backoff
 * ends without waiting for it.
 */
export async function advanceLedgerClock(knex: Knex, seconds: number): Promise<void> {
  const { rows } = await knex.raw(
    `SELECT column_name FROM information_schema.columns
      WHERE table_name = 'notification_delivery_ledger' AND table_schema = current_schema() AND data_type LIKE 'timestamp%'`,
  );
  const columns = (rows as Array<{ column_name: string }>).map((row) => row.column_name);
  const moves = columns.map((column) => `"${column}" = "${column}" - make_interval(secs => ?)`).join(', ');
  await knex.raw(
    `UPDATE notification_delivery_ledger SET ${moves}`,
    columns.map(() => seconds),
  );
}
