import type { Knex } from 'knex';
import { pgArray as array } from '../db/pg-array.ts';

type Db = Knex | Knex.Transaction;
const column = <T, K extends keyof T>(rows: readonly T[], key: K) => array(rows.map((row) => row[key]));

/** The ledger row every claim of one event shares; only the subscription and its provider vary. */
export interface ClaimedEvent {
  readonly eventId: number;
  readonly feedId: string;
  readonly sourceKey: string;
  readonly eventType: string;
  readonly itemKey: string;
}

/** A claimed row that waits for delivery (or is leased already, when the claim leased it). */
export interface ClaimedRow {
  readonly id: number;
  readonly subscriptionId: number;
}

/**
 * Claims one event for these subscriptions in one set-based statement; a
 * row the ledger already holds is skipped (ON CONFLICT DO NOTHING). A
 * subscription whose provider has no installed target gets a `failed` row
 * saying why. The event's columns go as scalars and only the
 * subscriptions' ids and providers as arrays: the least to send per row.
 * With `lease`, the rows are claimed already leased (`delivering`, first
 * attempt) for a dispatcher that takes them over at once: no second write
 * to lease them. Returns the rows that wait for (or are leased for) delivery.
 */
export async function claimEvent(
  db: Db,
  event: ClaimedEvent,
  subscriptions: { readonly ids: readonly number[]; readonly providers: readonly string[] },
  installed: readonly string[],
  lease?: { readonly token: string; readonly seconds: number },
): Promise<ClaimedRow[]> {
  if (subscriptions.ids.length === 0) return [];
  const result = await db.raw(
    `WITH claimed AS (
       INSERT INTO notification_delivery_ledger
         (subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, status, last_error, attempts, lease_token, lease_until)
       SELECT v.s, ?, ?, ?, ?, ?, v.p,
              CASE WHEN v.p = ANY(?::text[]) THEN ? ELSE 'failed' END,
              CASE WHEN v.p = ANY(?::text[]) THEN NULL ELSE 'no delivery target for provider ' || v.p END,
              CASE WHEN v.p = ANY(?::text[]) THEN ? ELSE 0 END,
              CASE WHEN v.p = ANY(?::text[]) THEN ? END,
              CASE WHEN v.p = ANY(?::text[]) AND ?::boolean THEN now() + make_interval(secs => ?) END
         FROM unnest(?::bigint[], ?::text[]) AS v(s, p)
       ON CONFLICT (subscription_id, source_key, event_type) DO NOTHING
       RETURNING id, subscription_id, status)
     SELECT id, subscription_id FROM claimed WHERE status <> 'failed' ORDER BY id`,
    [
      event.sourceKey, event.eventType, event.feedId, event.itemKey, event.eventId,
      array(installed), lease ? 'delivering' : 'pending',
      array(installed),
      array(installed), lease ? 1 : 0,
      array(installed), lease?.token ?? null,
      array(installed), lease !== undefined, lease?.seconds ?? 0,
      array(subscriptions.ids), array(subscriptions.providers),
    ],
  );
  return (result.rows as Array<{ id: number | string; subscription_id: number | string }>).map((row) => ({ id: Number(row.id), subscriptionId: Number(row.subscription_id) }));
}

/**
 * Cooldown coalescing of freshly claimed rows: each waits until the end of
 * the cooldown after its item's last delivery to that subscription (one in
 * flight, or held by the email outbox, counts as delivered now), and
 * supersedes older waiting rows of the same item and type, so the
 * subscriber gets the latest state once, when the window ends.
 */
export async function coalesceClaims(db: Db, ids: readonly number[], cooldownSeconds: number): Promise<void> {
  if (ids.length === 0) return;
  await db.raw(
    `UPDATE notification_delivery_ledger l
        SET next_attempt_at = GREATEST(l.next_attempt_at, last.delivered + make_interval(secs => ?))
       FROM (SELECT c.id, max(COALESCE(d.delivered_at, now())) AS delivered
               FROM notification_delivery_ledger c
               JOIN notification_delivery_ledger d
                 ON d.subscription_id = c.subscription_id AND d.item_key = c.item_key
                AND d.status IN ('delivered', 'delivering', 'queued')
              WHERE c.id = ANY(?::bigint[])
              GROUP BY c.id) last
      WHERE l.id = last.id`,
    [cooldownSeconds, array(ids)],
  );
  await supersedeWaiting(db, ids.map((id) => ({ id, eventType: null })));
}

/**
 * For each freshly claimed row: its subscription's older rows of the same
 * item and of `eventType` (null: the row's own type) that still wait
 * (pending or retrying) become `superseded`, and are never delivered.
 */
export async function supersedeWaiting(db: Db, rows: ReadonlyArray<{ id: number; eventType: string | null }>): Promise<void> {
  if (rows.length === 0) return;
  await db.raw(
    `UPDATE notification_delivery_ledger o
        SET status = 'superseded', lease_until = NULL
       FROM unnest(?::bigint[], ?::text[]) AS v(id, t)
       JOIN notification_delivery_ledger n ON n.id = v.id
      WHERE o.subscription_id = n.subscription_id AND o.item_key = n.item_key AND o.event_type = COALESCE(v.t, n.event_type)
        AND o.id < n.id AND o.status IN ('pending', 'retrying')`,
    [column(rows, 'id'), column(rows, 'eventType')],
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
