import type { Knex } from 'knex';
import type { LaterOutcome } from '../plugin-api/core-ports.ts';
import { pgArray as array } from '../plugin-api/pg-array.ts';

type Db = Knex | Knex.Transaction;

/** The peer's later word on a delivery, as recorded: its provider, for the count. */
export interface RecordedOutcome {
  readonly provider: string;
  readonly outcome: LaterOutcome['outcome'];
}

/**
 * Records what a peer said of deliveries after it took them (a carrier's
 * report), on their ledger rows, whatever their state: the outcome, the
 * peer's code and when (the database's clock). A report repeated for the
 * same outcome is recorded once. Returns the rows it changed.
 */
export async function recordOutcomes(db: Db, reports: readonly LaterOutcome[]): Promise<RecordedOutcome[]> {
  if (reports.length === 0) return [];
  const result = await db.raw(
    `UPDATE notification_delivery_ledger l
        SET outcome = v.outcome, outcome_code = v.code, outcome_at = now()
       FROM unnest(?::bigint[], ?::text[], ?::text[]) AS v(id, outcome, code)
      WHERE l.id = v.id AND (l.outcome IS DISTINCT FROM v.outcome OR l.outcome_code IS DISTINCT FROM v.code)
      RETURNING l.provider, l.outcome`,
    [array(reports.map((r) => r.ledgerId)), array(reports.map((r) => r.outcome)), array(reports.map((r) => r.code ?? null))],
  );
  return (result.rows as Array<{ provider: string; outcome: LaterOutcome['outcome'] }>).map((row) => ({ provider: row.provider, outcome: row.outcome }));
}
