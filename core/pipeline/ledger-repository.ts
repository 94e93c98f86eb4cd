import type { Knex } from 'knex';
import type { SubscriptionScope } from '../plugin-api/delivery-types.ts';

/**
 * Ledger statuses. A row is claimed `pending` (or `queued` when a
 * transactional target took it in the claim's transaction), leased as
 * `delivering`, and ends `delivered`, `failed` or `superseded` (a coalesced
 * Updated replaced by a later one); `retrying` waits for its next attempt.
 */
export type LedgerStatus = 'pending' | 'queued' | 'delivering' | 'delivered' | 'retrying' | 'failed' | 'superseded';

export interface ClaimCandidate {
  subscriptionId: number;
  sourceKey: string;
  eventType: string;
  feedId: string;
  itemKey: string;
  eventId: number;
  provider: string;
  status: 'pending' | 'queued' | 'failed';
  lastError: string | null;
}

export interface ClaimedRow {
  id: number;
  subscription_id: number;
  event_id: number;
}

export interface LeasedDelivery {
  ledger_id: number;
  attempts: number;
  subscription_id: number;
  public_id: string;
  display_name: string;
  scope: SubscriptionScope;
  provider: string;
  destination: string;
  is_active: boolean;
  feed_id: string;
  event_type: string;
  source_key: string;
  item_key: string;
  fields: Record<string, string>;
  payload: unknown;
  rendered: Record<string, unknown>;
}

export interface RecordedOutcome {
  id: number;
  status: 'delivered' | 'retrying' | 'failed';
  nextAttemptAt: Date | null;
  error: string | null;
}

type Db = Knex | Knex.Transaction;
/** A JavaScript array bound as one PostgreSQL array parameter (pg and PGlite both serialise it). */
const array = (values: readonly unknown[]) => [...values] as unknown as Knex.Value;
const column = <T, K extends keyof T>(rows: readonly T[], key: K) => array(rows.map((row) => row[key]));

/** Claims rows set-based; a row the ledger already holds is skipped (ON CONFLICT DO NOTHING). */
export async function claimDeliveries(db: Db, candidates: readonly ClaimCandidate[]): Promise<ClaimedRow[]> {
  if (candidates.length === 0) return [];
  const result = await db.raw(
    `INSERT INTO notification_delivery_ledger
       (subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, status, last_error, delivered_at)
     SELECT v.s, v.k, v.t, v.f, v.i, v.e, v.p, v.st, v.err, CASE WHEN v.st = 'queued' THEN now() END
       FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[])
         AS v(s, k, t, f, i, e, p, st, err)
     ON CONFLICT (subscription_id, source_key, event_type) DO NOTHING
     RETURNING id, subscription_id, event_id`,
    [
      column(candidates, 'subscriptionId'), column(candidates, 'sourceKey'), column(candidates, 'eventType'),
      column(candidates, 'feedId'), column(candidates, 'itemKey'), column(candidates, 'eventId'),
      column(candidates, 'provider'), column(candidates, 'status'), column(candidates, 'lastError'),
    ],
  );
  return result.rows;
}

/**
 * Cooldown coalescing of freshly claimed rows: each waits until the end of
 * the cooldown after its item's last delivery to that subscription, and
 * supersedes older waiting rows of the same item and type, so the
 * subscriber gets the latest state once, when the window ends.
 */
export async function coalesceClaims(db: Db, ids: readonly number[], cooldownSeconds: number): Promise<void> {
  if (ids.length === 0) return;
  await db.raw(
    `UPDATE notification_delivery_ledger l
        SET next_attempt_at = GREATEST(l.next_attempt_at, last.delivered + make_interval(secs => ?))
       FROM (SELECT c.id, max(d.delivered_at) AS delivered
               FROM notification_delivery_ledger c
               JOIN notification_delivery_ledger d
                 ON d.subscription_id = c.subscription_id AND d.item_key = c.item_key AND d.status = 'delivered'
              WHERE c.id = ANY(?::bigint[])
              GROUP BY c.id) last
      WHERE l.id = last.id`,
    [cooldownSeconds, array(ids)],
  );
  await db.raw(
    `UPDATE notification_delivery_ledger o
        SET status = 'superseded', lease_until = NULL
       FROM notification_delivery_ledger n
      WHERE n.id = ANY(?::bigint[])
        AND o.subscription_id = n.subscription_id AND o.item_key = n.item_key AND o.event_type = n.event_type
        AND o.id < n.id AND o.status IN ('pending', 'retrying')`,
    [array(ids)],
  );
}

const LEASED_COLUMNS = `l.id AS ledger_id, l.attempts, s.id AS subscription_id, s.public_id, s.display_name, s.scope,
  s.provider, s.destination, s.is_active, e.feed_id, e.event_type, e.source_key, e.item_key, e.fields, e.payload, e.rendered`;

/**
 * Leases up to `limit` due rows (FOR UPDATE SKIP LOCKED: instances never
 * take the same row) with their subscription and event. A `delivering`
 * row whose lease lapsed (its instance died) is due again.
 */
export async function leaseDueDeliveries(
  db: Db,
  options: { limit: number; leaseSeconds: number; onlyIds?: readonly number[] },
): Promise<LeasedDelivery[]> {
  const only = options.onlyIds ? 'AND id = ANY(?::bigint[])' : '';
  const result = await db.raw(
    `WITH due AS (
       SELECT id FROM notification_delivery_ledger
        WHERE ((status IN ('pending', 'retrying') AND next_attempt_at <= now()) OR (status = 'delivering' AND lease_until < now()))
          ${only}
        ORDER BY next_attempt_at, id
        LIMIT ?
        FOR UPDATE SKIP LOCKED)
     UPDATE notification_delivery_ledger l
        SET status = 'delivering', attempts = l.attempts + 1, lease_until = now() + make_interval(secs => ?)
       FROM due, notification_subscriptions s, notification_events e
      WHERE l.id = due.id AND s.id = l.subscription_id AND e.id = l.event_id
      RETURNING ${LEASED_COLUMNS}`,
    [...(options.onlyIds ? [array(options.onlyIds)] : []), options.limit, options.leaseSeconds],
  );
  return result.rows;
}

/** Records outcomes of leased rows set-based; a row no longer leased (taken over) is left alone. */
export async function recordOutcomes(db: Db, outcomes: readonly RecordedOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await db.raw(
    `UPDATE notification_delivery_ledger l
        SET status = v.status,
            delivered_at = CASE WHEN v.status = 'delivered' THEN now() ELSE l.delivered_at END,
            next_attempt_at = COALESCE(v.next_at, l.next_attempt_at),
            last_error = v.err,
            lease_until = NULL
       FROM unnest(?::bigint[], ?::text[], ?::timestamptz[], ?::text[]) AS v(id, status, next_at, err)
      WHERE l.id = v.id AND l.status = 'delivering'`,
    [column(outcomes, 'id'), column(outcomes, 'status'), column(outcomes, 'nextAttemptAt'), column(outcomes, 'error')],
  );
}

/** Whether a System subscription holds a live (not failed, not superseded) row for one of these events. */
export async function systemDeliveryExists(db: Db, events: ReadonlyArray<{ feedId: string; sourceKey: string; eventType: string }>): Promise<boolean> {
  if (events.length === 0) return false;
  const result = await db.raw(
    `SELECT EXISTS (
       SELECT 1 FROM notification_delivery_ledger l
         JOIN notification_subscriptions s ON s.id = l.subscription_id
         JOIN unnest(?::text[], ?::text[], ?::text[]) AS v(f, k, t) ON l.feed_id = v.f AND l.source_key = v.k AND l.event_type = v.t
        WHERE s.scope = 'System' AND l.status NOT IN ('failed', 'superseded')) AS found`,
    [column(events, 'feedId'), column(events, 'sourceKey'), column(events, 'eventType')],
  );
  return result.rows[0].found === true;
}
