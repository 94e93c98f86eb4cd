import type { Knex } from 'knex';
import { pgArray as array } from '../plugin-api/pg-array.ts';

type Db = Knex | Knex.Transaction;

/**
 * What the ledger records of one attempt. `queued`: a transactional target
 * took it and settles it later. `deferred`: the peer said to slow down
 * (its lane is paused): the row waits again and the attempt is not
 * counted, so a rate limit alone never makes a delivery fail.
 */
export interface SettledDelivery {
  readonly id: number;
  readonly status: 'delivered' | 'retrying' | 'failed' | 'queued' | 'deferred';
  /**
   * A wait, in seconds from when it is recorded (a retry's backoff, a
   * deferral's pause): the ledger adds it to the database's clock, the one
   * that decides what is due.
   */
  readonly retryInSeconds: number | null;
  readonly error: string | null;
  /** Already recorded while its batch was still under way (settle-as-you-go): the batch's settle skips it. */
  readonly recorded?: boolean;
  /** A failure because the destination is no more: recorded as the row's outcome `gone`, with the peer's code. */
  readonly gone?: { readonly code: string | null };
}

/**
 * Records outcomes set-based on the rows this lease still holds (a row
 * holds a lease token only while leased, so the token alone says it is
 * still ours; matching by id first keeps the plan a primary-key lookup per
 * row). `queued` rows were settled by their target's transaction, and
 * `recorded` ones while their batch was under way. Each lane's minute of
 * outcomes is counted in the same statement (the console's chart and the
 * estimates read it). Returns how many rows were settled.
 */
export async function settleLeased(db: Db, token: string, outcomes: readonly SettledDelivery[]): Promise<number> {
  const recorded = outcomes.filter((outcome) => outcome.status !== 'queued' && !outcome.recorded);
  if (recorded.length === 0) return 0;
  const result = await db.raw(
    `WITH s AS (
       UPDATE notification_delivery_ledger l
          SET status = CASE WHEN v.status = 'deferred' THEN 'pending' ELSE v.status END,
              attempts = CASE WHEN v.status = 'deferred' THEN GREATEST(l.attempts - 1, 0) ELSE l.attempts END,
              delivered_at = CASE WHEN v.status = 'delivered' THEN now() ELSE l.delivered_at END,
              next_attempt_at = CASE WHEN v.wait IS NULL THEN l.next_attempt_at ELSE now() + make_interval(secs => v.wait) END,
              last_error = v.err,
              outcome = CASE WHEN v.gone THEN 'gone' ELSE l.outcome END,
              outcome_code = CASE WHEN v.gone THEN v.code ELSE l.outcome_code END,
              outcome_at = CASE WHEN v.gone THEN now() ELSE l.outcome_at END,
              lease_token = NULL,
              lease_until = NULL
         FROM unnest(?::bigint[], ?::text[], ?::float8[], ?::text[], ?::boolean[], ?::text[]) AS v(id, status, wait, err, gone, code)
        WHERE l.id = v.id AND l.lease_token = ?
        RETURNING l.id, l.provider, l.status, l.attempts, l.last_error),
     counted AS (${COUNT_MINUTE}),
     logged AS (${LOG_ATTEMPTS})
     SELECT count(*) AS n FROM s`,
    [
      array(recorded.map((o) => o.id)),
      array(recorded.map((o) => o.status)),
      array(recorded.map((o) => o.retryInSeconds)),
      array(recorded.map((o) => o.error)),
      array(recorded.map((o) => o.gone !== undefined)),
      array(recorded.map((o) => o.gone?.code ?? null)),
      token,
    ],
  );
  return Number(result.rows[0]?.n ?? 0);
}

/** Keeps the attempts of `s` (id, status, attempts, last_error) that did not end well: a retry, a failure (the trace reads them). */
export const LOG_ATTEMPTS = `
       INSERT INTO notification_delivery_attempts (ledger_id, attempt, status, error)
       SELECT id, attempts, status, last_error FROM s WHERE status IN ('retrying', 'failed')`;

/** Adds the settled rows of `s` (provider, status) to their lane's minute. */
export const COUNT_MINUTE = `
       INSERT INTO delivery_lane_minutes AS m (provider, minute, delivered, failed)
       SELECT provider, date_trunc('minute', now()), count(*) FILTER (WHERE status = 'delivered'), count(*) FILTER (WHERE status = 'failed')
         FROM s WHERE status IN ('delivered', 'failed') GROUP BY provider
       ON CONFLICT (provider, minute) DO UPDATE SET delivered = m.delivered + EXCLUDED.delivered, failed = m.failed + EXCLUDED.failed`;
