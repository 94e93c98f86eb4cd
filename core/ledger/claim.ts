import type { Knex } from 'knex';
import { pgArray as array } from '../plugin-api/pg-array.ts';

type Db = Knex | Knex.Transaction;
const column = <T, K extends keyof T>(rows: readonly T[], key: K) => array(rows.map((row) => row[key]));

/** The ledger row every claim of one event shares; only the subscription and its provider vary. */
export interface ClaimedEvent {
  readonly eventId: number;
  readonly feedId: string;
  readonly sourceKey: string;
  readonly eventType: string;
  readonly itemKey: string;
  /** Leased before the non-urgent backlog of its lane (the feed marks its type, or the event itself, urgent). */
  readonly urgent: boolean;
}

/** A claimed row that waits for delivery (or is leased already, when its lane took it over). */
export interface ClaimedRow {
  readonly id: number;
  readonly subscriptionId: number;
  /** Index of its event in the claim's list. */
  readonly event: number;
  readonly provider: string;
  /** Claimed already `delivering` under the take-over's lease. */
  readonly leased: boolean;
}

/** One subscription an event of the claim goes to: its event's index in the list, the subscription, its provider. */
export interface ClaimTarget {
  readonly event: number;
  readonly subscriptionId: number;
  readonly provider: string;
}

/**
 * Rows claimed already leased (a take-over): those of `events` (by index)
 * whose provider is among `providers` (the lanes that had room) are
 * claimed `delivering` under `token`, first attempt.
 */
export interface TakeOverLease {
  readonly token: string;
  readonly seconds: number;
  readonly providers: ReadonlySet<string>;
  readonly events: ReadonlySet<number>;
}

/** Rows one claim statement inserts at most: bounded statements, whatever the events times the subscribers. */
export const CLAIM_ROWS_PER_STATEMENT = 20_000;

interface ReturnedRow {
  id: number | string;
  subscription_id: number | string;
  event_id?: number | string;
  provider: string;
  status: string;
}

/**
 * Claims events for subscriptions, set-based: one statement per
 * CLAIM_ROWS_PER_STATEMENT rows, whatever the number of events (a storm of
 * 10,000 new outages is a handful of statements). A row the ledger already
 * holds is skipped (ON CONFLICT DO NOTHING): each event reaches each
 * subscription at most once. A subscription whose provider has no installed
 * target gets a `failed` row saying why. Rows are numbered in the order
 * given (events in their order), so a later event's rows come after an
 * earlier one's (superseding relies on it). With `lease`, the rows of its
 * events and lanes are claimed already leased for a lane that takes them
 * over at once: no second write to lease them. Returns the rows that wait
 * for (or are leased for) delivery.
 */
export async function claimRows(
  db: Db,
  events: readonly ClaimedEvent[],
  targets: readonly ClaimTarget[],
  installed: readonly string[],
  lease?: TakeOverLease,
): Promise<ClaimedRow[]> {
  const claimed: ClaimedRow[] = [];
  const leasedProviders = lease ? [...lease.providers] : [];
  if (events.length === 1 && targets.every((target) => installed.includes(target.provider))) {
    // The common case (one event, every provider installed): the event's columns are parameters, not a joined list.
    const leased = lease?.events.has(0) ? leasedProviders : [];
    for (let start = 0; start < targets.length; start += CLAIM_ROWS_PER_STATEMENT) {
      claimed.push(...(await claimOneEvent(db, events[0], targets.slice(start, start + CLAIM_ROWS_PER_STATEMENT), leased, lease)));
    }
    return claimed;
  }
  const indexOf = new Map(events.map((event, index) => [event.eventId, index]));
  for (let start = 0; start < targets.length; start += CLAIM_ROWS_PER_STATEMENT) {
    const chunk = targets.slice(start, start + CLAIM_ROWS_PER_STATEMENT);
    const leasedEvents = events.map((_, index) => lease?.events.has(index) ?? false);
    const result = await db.raw(
      `WITH e AS (
         SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::boolean[], ?::boolean[]) WITH ORDINALITY
           AS e(event_id, feed_id, source_key, event_type, item_key, urgent, leasable, n)),
       v AS (
         SELECT v.*, v.p = ANY(?::text[]) AS installed, e.leasable AND v.p = ANY(?::text[]) AS leased
           FROM unnest(?::int[], ?::bigint[], ?::text[]) WITH ORDINALITY AS v(i, s, p, n) JOIN e ON e.n = v.i + 1),
       claimed AS (
         INSERT INTO notification_delivery_ledger
           (subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, urgent, status, last_error, attempts, lease_token, lease_until)
         SELECT v.s, e.source_key, e.event_type, e.feed_id, e.item_key, e.event_id, v.p, e.urgent,
                CASE WHEN NOT v.installed THEN 'failed' WHEN v.leased THEN 'delivering' ELSE 'pending' END,
                CASE WHEN v.installed THEN NULL ELSE 'no delivery target for provider ' || v.p END,
                CASE WHEN v.installed AND v.leased THEN 1 ELSE 0 END,
                CASE WHEN v.installed AND v.leased THEN ?::text END,
                CASE WHEN v.installed AND v.leased THEN now() + make_interval(secs => ?) END
           FROM v JOIN e ON e.n = v.i + 1
          ORDER BY v.n
         ON CONFLICT (subscription_id, source_key, event_type) DO NOTHING
         RETURNING id, subscription_id, event_id, provider, status)
       SELECT id, subscription_id, event_id, provider, status FROM claimed WHERE status <> 'failed' ORDER BY id`,
      [
        column(events, 'eventId'),
        column(events, 'feedId'),
        column(events, 'sourceKey'),
        column(events, 'eventType'),
        column(events, 'itemKey'),
        column(events, 'urgent'),
        array(leasedEvents),
        array(installed),
        array(leasedProviders),
        column(chunk, 'event'),
        column(chunk, 'subscriptionId'),
        column(chunk, 'provider'),
        lease?.token ?? null,
        lease?.seconds ?? 0,
      ],
    );
    for (const row of result.rows as ReturnedRow[]) {
      claimed.push({
        id: Number(row.id),
        subscriptionId: Number(row.subscription_id),
        event: indexOf.get(Number(row.event_id))!,
        provider: row.provider,
        leased: row.status === 'delivering',
      });
    }
  }
  return claimed;
}

/** One event's rows, every provider installed: a plain INSERT … SELECT FROM unnest, each row leased when its lane took it over. */
async function claimOneEvent(
  db: Db,
  event: ClaimedEvent,
  targets: readonly ClaimTarget[],
  leasedProviders: readonly string[],
  lease: TakeOverLease | undefined,
): Promise<ClaimedRow[]> {
  const anyLeased = leasedProviders.length > 0;
  const result = await db.raw(
    `INSERT INTO notification_delivery_ledger
       (subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, urgent, status, attempts, lease_token, lease_until)
     SELECT v.s, ?, ?, ?, ?, ?, v.p, ?, CASE WHEN v.l THEN 'delivering' ELSE 'pending' END, CASE WHEN v.l THEN 1 ELSE 0 END,
            CASE WHEN v.l THEN ?::text END, CASE WHEN v.l THEN now() + make_interval(secs => ?::float8) END
       FROM (SELECT s, p, n, ${anyLeased ? 'p = ANY(?::text[])' : 'false'} AS l FROM unnest(?::bigint[], ?::text[]) WITH ORDINALITY AS u(s, p, n)) v
      ORDER BY v.n
     ON CONFLICT (subscription_id, source_key, event_type) DO NOTHING
     RETURNING id, subscription_id, provider, status`,
    [
      event.sourceKey,
      event.eventType,
      event.feedId,
      event.itemKey,
      event.eventId,
      event.urgent,
      lease?.token ?? null,
      lease?.seconds ?? 0,
      ...(anyLeased ? [array(leasedProviders)] : []),
      column(targets, 'subscriptionId'),
      column(targets, 'provider'),
    ],
  );
  const rows = (result.rows as ReturnedRow[]).map((row) => ({
    id: Number(row.id),
    subscriptionId: Number(row.subscription_id),
    event: 0,
    provider: row.provider,
    leased: row.status === 'delivering',
  }));
  return rows.sort((a, b) => a.id - b.id);
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
