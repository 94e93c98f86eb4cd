import type { Knex } from 'knex';
import { pgArray as array } from '../plugin-api/pg-array.ts';
import type { SubscriptionScope } from '../plugin-api/delivery-types.ts';
import type { SubscriberPreferences } from '../plugin-api/preferences.ts';

type Db = Knex | Knex.Transaction;

/** A leased ledger row with its subscription (the event is read apart: many rows share one). */
export interface LeasedRow {
  readonly ledgerId: number;
  readonly eventId: number;
  /** This attempt's number: the lease counts it. */
  readonly attempt: number;
  /** Events of the same item this row replaced, which the subscriber never got (oldest first). */
  readonly replaces: readonly number[];
  readonly subscription: LeasedSubscription;
}

export interface LeasedSubscription {
  readonly id: number;
  readonly public_id: string;
  readonly display_name: string;
  readonly feed_id: string;
  readonly scope: SubscriptionScope;
  readonly provider: string;
  readonly destination: string;
  readonly is_active: boolean;
  /** What the subscriber decided (their language and zone are read at delivery). */
  readonly preferences: SubscriberPreferences;
  /** The row is an escalation step: `destination` is the step's own. */
  readonly escalation_step?: boolean;
}

// A row of an escalation step goes by its own provider to its own destination (the step's), the rest to the subscription's.
const RETURNING = `RETURNING l.id, l.attempts, l.event_id, l.replaces, s.id AS subscription_id, s.public_id, s.display_name, s.feed_id, s.scope,
                  l.provider, COALESCE(l.destination, s.destination) AS destination, l.destination IS NOT NULL AS escalation_step,
                  s.is_active, s.preferences`;

const toLeased = (row: Record<string, unknown>): LeasedRow => ({
  ledgerId: Number(row.id),
  eventId: Number(row.event_id),
  attempt: Number(row.attempts),
  replaces: ((row.replaces as Array<string | number> | null) ?? []).map(Number),
  subscription: {
    id: Number(row.subscription_id),
    public_id: String(row.public_id),
    display_name: String(row.display_name),
    feed_id: String(row.feed_id),
    scope: row.scope as SubscriptionScope,
    provider: String(row.provider),
    destination: String(row.destination),
    is_active: row.is_active === true,
    preferences: (row.preferences ?? {}) as SubscriberPreferences,
    ...(row.escalation_step === true ? { escalation_step: true } : {}),
  },
});

/**
 * The lease loop's way in: leases up to `limit` due rows of one lane
 * (provider) under `token`. Due: waiting (pending or retrying) with its
 * next attempt come, urgent ones first and older before newer within each
 * class; or leased with a lapsed lease (its instance died), first of all.
 * Three index-ordered reads, each taking only what it needs; nothing is
 * leased while the lane is paused (a peer said to slow down).
 */
export async function leaseDue(db: Db, provider: string, limit: number, token: string, leaseSeconds: number): Promise<LeasedRow[]> {
  const result = await db.raw(
    `WITH lane AS (
       SELECT NOT EXISTS (SELECT 1 FROM delivery_lanes WHERE provider = ? AND paused_until > now()) AS open),
     lapsed AS (
       SELECT id FROM notification_delivery_ledger
        WHERE provider = ? AND status = 'delivering' AND lease_until < now() AND (SELECT open FROM lane)
        ORDER BY lease_until LIMIT ? FOR UPDATE SKIP LOCKED),
     urgent AS (
       SELECT id FROM notification_delivery_ledger
        WHERE provider = ? AND urgent AND status IN ('pending', 'retrying') AND next_attempt_at <= now() AND (SELECT open FROM lane)
        ORDER BY next_attempt_at, id LIMIT ? FOR UPDATE SKIP LOCKED),
     later AS (
       SELECT id FROM notification_delivery_ledger
        WHERE provider = ? AND NOT urgent AND status IN ('pending', 'retrying') AND next_attempt_at <= now() AND (SELECT open FROM lane)
        ORDER BY next_attempt_at, id LIMIT ? FOR UPDATE SKIP LOCKED),
     due AS (
       SELECT id FROM (SELECT id, 0 AS k FROM lapsed UNION ALL SELECT id, 1 FROM urgent UNION ALL SELECT id, 2 FROM later) d
        ORDER BY k LIMIT ?)
     UPDATE notification_delivery_ledger l
        SET status = 'delivering', attempts = l.attempts + 1, lease_token = ?, lease_until = now() + make_interval(secs => ?)
       FROM due, notification_subscriptions s
      WHERE l.id = due.id AND s.id = l.subscription_id
      ${RETURNING}`,
    [provider, provider, limit, provider, limit, provider, limit, limit, token, leaseSeconds],
  );
  return (result.rows as Array<Record<string, unknown>>).map(toLeased).sort((a, b) => a.ledgerId - b.ledgerId);
}

/**
 * Deliver now's way in: leases exactly these rows (when due: waiting, or
 * leased with a lapsed lease) under `token`, for a caller that waits for
 * them (/test, announcements). Rows claimed already leased under `token`
 * (the caller's lease) are taken as they are: their first attempt is
 * counted by the claim.
 */
export async function leaseByIds(db: Db, ids: readonly number[], token: string, leaseSeconds: number): Promise<LeasedRow[]> {
  if (ids.length === 0) return [];
  const result = await db.raw(
    `WITH due AS (
       SELECT id FROM notification_delivery_ledger
        WHERE id = ANY(?::bigint[])
          AND ((status IN ('pending', 'retrying') AND next_attempt_at <= now())
               OR (status = 'delivering' AND (lease_until < now() OR lease_token = ?)))
        FOR UPDATE SKIP LOCKED)
     UPDATE notification_delivery_ledger l
        SET status = 'delivering', attempts = CASE WHEN l.status = 'delivering' AND l.lease_token = ? THEN l.attempts ELSE l.attempts + 1 END,
            lease_token = ?, lease_until = now() + make_interval(secs => ?)
       FROM due, notification_subscriptions s
      WHERE l.id = due.id AND s.id = l.subscription_id
      ${RETURNING}`,
    [array(ids), token, token, token, leaseSeconds],
  );
  return (result.rows as Array<Record<string, unknown>>).map(toLeased).sort((a, b) => a.ledgerId - b.ledgerId);
}

/** Moves the lease end of the rows `token` still holds. */
export async function renewLease(db: Db, token: string, leaseSeconds: number): Promise<void> {
  await db.raw(
    `UPDATE notification_delivery_ledger SET lease_until = now() + make_interval(secs => ?)
      WHERE lease_token = ? AND status = 'delivering'`,
    [leaseSeconds, token],
  );
}

/** Milliseconds until one of the lane's rows falls due (a backoff ends, a lease lapses, a pause ends), on the database's clock; null when none waits. */
export async function nextDueInMs(db: Db, provider: string): Promise<number | null> {
  const result = await db.raw(
    `SELECT 1000 * EXTRACT(EPOCH FROM CASE WHEN due IS NULL THEN NULL ELSE GREATEST(due, paused) END - now()) AS ms
       FROM (SELECT LEAST(
                (SELECT min(next_attempt_at) FROM notification_delivery_ledger WHERE provider = ? AND urgent AND status IN ('pending', 'retrying')),
                (SELECT min(next_attempt_at) FROM notification_delivery_ledger WHERE provider = ? AND NOT urgent AND status IN ('pending', 'retrying')),
                (SELECT min(lease_until) FROM notification_delivery_ledger WHERE provider = ? AND status = 'delivering')) AS due,
              (SELECT paused_until FROM delivery_lanes WHERE provider = ?) AS paused) t`,
    [provider, provider, provider, provider],
  );
  const ms = result.rows[0]?.ms;
  return ms === null || ms === undefined ? null : Number(ms);
}
