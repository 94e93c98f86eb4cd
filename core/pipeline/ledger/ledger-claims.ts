import type { Knex } from 'knex';
import { pgArray as array } from '../../db/pg-array.ts';

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
  /** Index of its event in the claim's list. */
  readonly event: number;
}

/** One subscription an event of the claim goes to: its event's index in the list, the subscription, its provider. */
export interface ClaimTarget {
  readonly event: number;
  readonly subscriptionId: number;
  readonly provider: string;
}

/** Rows one claim statement inserts at most: bounded statements, whatever the events times the subscribers. */
export const CLAIM_ROWS_PER_STATEMENT = 20_000;

/**
 * Claims events for subscriptions, set-based: one statement per
 * CLAIM_ROWS_PER_STATEMENT rows, whatever the number of events (a storm of
 * 10,000 new outages is a handful of statements). A row the ledger already
 * holds is skipped (ON CONFLICT DO NOTHING). A subscription whose provider
 * has no installed target gets a `failed` row saying why. Each event's
 * columns go once, as arrays indexed by the targets; per row only the
 * event's index, the subscription and its provider. Rows are numbered in
 * the order given (events in their order), so a later event's rows come
 * after an earlier one's (supersedes relies on it). With `leasedEvents`,
 * those events' rows are claimed already leased (`delivering`, first
 * attempt) for a dispatcher that takes them over at once: no second write
 * to lease them. Returns the rows that wait for (or are leased for) delivery.
 */
export async function claimEvents(
  db: Db,
  events: readonly ClaimedEvent[],
  targets: readonly ClaimTarget[],
  installed: readonly string[],
  lease?: { readonly token: string; readonly seconds: number; readonly events: ReadonlySet<number> },
): Promise<ClaimedRow[]> {
  const claimed: ClaimedRow[] = [];
  if (events.length === 1 && targets.every((target) => installed.includes(target.provider))) {
    // The common case (one event, every provider installed): the event's columns are parameters, not a joined list.
    for (let start = 0; start < targets.length; start += CLAIM_ROWS_PER_STATEMENT) {
      claimed.push(...(await claimOneEvent(db, events[0], targets.slice(start, start + CLAIM_ROWS_PER_STATEMENT), lease?.events.has(0) ? lease : undefined)));
    }
    return claimed;
  }
  for (let start = 0; start < targets.length; start += CLAIM_ROWS_PER_STATEMENT) {
    const chunk = targets.slice(start, start + CLAIM_ROWS_PER_STATEMENT);
    const leased = lease ? events.map((_, index) => lease.events.has(index)) : events.map(() => false);
    const result = await db.raw(
      `WITH e AS (
         SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::boolean[]) WITH ORDINALITY
           AS e(event_id, feed_id, source_key, event_type, item_key, leased, n)),
       claimed AS (
         INSERT INTO notification_delivery_ledger
           (subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, status, last_error, attempts, lease_token, lease_until)
         SELECT v.s, e.source_key, e.event_type, e.feed_id, e.item_key, e.event_id, v.p,
                CASE WHEN NOT v.p = ANY(?::text[]) THEN 'failed' WHEN e.leased THEN 'delivering' ELSE 'pending' END,
                CASE WHEN v.p = ANY(?::text[]) THEN NULL ELSE 'no delivery target for provider ' || v.p END,
                CASE WHEN v.p = ANY(?::text[]) AND e.leased THEN 1 ELSE 0 END,
                CASE WHEN v.p = ANY(?::text[]) AND e.leased THEN ?::text END,
                CASE WHEN v.p = ANY(?::text[]) AND e.leased THEN now() + make_interval(secs => ?) END
           FROM unnest(?::int[], ?::bigint[], ?::text[]) WITH ORDINALITY AS v(i, s, p, n)
           JOIN e ON e.n = v.i + 1
          ORDER BY v.n
         ON CONFLICT (subscription_id, source_key, event_type) DO NOTHING
         RETURNING id, subscription_id, event_id, status)
       SELECT id, subscription_id, event_id FROM claimed WHERE status <> 'failed' ORDER BY id`,
      [
        column(events, 'eventId'), column(events, 'feedId'), column(events, 'sourceKey'), column(events, 'eventType'), column(events, 'itemKey'), array(leased),
        array(installed), array(installed), array(installed),
        array(installed), lease?.token ?? null,
        array(installed), lease?.seconds ?? 0,
        column(chunk, 'event'), column(chunk, 'subscriptionId'), column(chunk, 'provider'),
      ],
    );
    const indexOf = new Map(events.map((event, index) => [event.eventId, index]));
    for (const row of result.rows as Array<{ id: number | string; subscription_id: number | string; event_id: number | string }>) {
      claimed.push({ id: Number(row.id), subscriptionId: Number(row.subscription_id), event: indexOf.get(Number(row.event_id))! });
    }
  }
  return claimed;
}

/** One event's rows, every provider installed: a plain INSERT … SELECT FROM unnest, leased or waiting. */
async function claimOneEvent(
  db: Db,
  event: ClaimedEvent,
  targets: readonly ClaimTarget[],
  lease: { readonly token: string; readonly seconds: number } | undefined,
): Promise<ClaimedRow[]> {
  const result = await db.raw(
    `INSERT INTO notification_delivery_ledger
       (subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, status, attempts, lease_token, lease_until)
     SELECT v.s, ?, ?, ?, ?, ?, v.p, ?, ?, ?::text, CASE WHEN ?::boolean THEN now() + make_interval(secs => ?::float8) END
       FROM unnest(?::bigint[], ?::text[]) WITH ORDINALITY AS v(s, p, n)
      ORDER BY v.n
     ON CONFLICT (subscription_id, source_key, event_type) DO NOTHING
     RETURNING id, subscription_id`,
    [
      event.sourceKey, event.eventType, event.feedId, event.itemKey, event.eventId,
      lease ? 'delivering' : 'pending', lease ? 1 : 0, lease?.token ?? null, lease !== undefined, lease?.seconds ?? 0,
      column(targets, 'subscriptionId'), column(targets, 'provider'),
    ],
  );
  const rows = (result.rows as Array<{ id: number | string; subscription_id: number | string }>).map((row) => ({
    id: Number(row.id),
    subscriptionId: Number(row.subscription_id),
    event: 0,
  }));
  return rows.sort((a, b) => a.id - b.id);
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
