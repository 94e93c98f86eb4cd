import type { Knex } from 'knex';
import { pgArray as array } from '../plugin-api/pg-array.ts';
import type { RenderedNotification } from '../plugin-api/feed-types.ts';

/** A held row whose quiet hours ended, with its event (what the catch-up tells). */
export interface HeldRow {
  id: string | number;
  subscription_id: string | number;
  held_at: Date | string | null;
  created_at: Date | string;
  held_until: Date | string;
  event_id: string | number;
  feed_id: string;
  event_type: string;
  source_key: string;
  item_key: string;
  fields: Record<string, string>;
  payload: unknown;
  rendered: RenderedNotification;
}

/** The subscription a catch-up is made for, locked for the release's transaction. */
export interface ReleasedSubscription {
  id: string | number;
  feed_id: string;
  provider: string;
  preferences: Record<string, unknown> | null;
}

/**
 * Locks up to `limit` subscriptions with held rows whose hold ended by
 * `now` (FOR NO KEY UPDATE SKIP LOCKED: two instances never take the same
 * one), and reads those rows with their events.
 */
export async function lockEndedHolds(trx: Knex.Transaction, now: Date, limit: number): Promise<{ subscriptions: ReleasedSubscription[]; held: HeldRow[] }> {
  const locked = await trx.raw(
    `SELECT s.id, s.feed_id, s.provider, s.preferences FROM notification_subscriptions s
      WHERE s.id IN (SELECT DISTINCT subscription_id FROM notification_delivery_ledger
                      WHERE status = 'held' AND held_until <= ?::timestamptz LIMIT ?)
      ORDER BY s.id
      FOR NO KEY UPDATE SKIP LOCKED`,
    [now.toISOString(), limit],
  );
  const subscriptions = locked.rows as ReleasedSubscription[];
  if (subscriptions.length === 0) return { subscriptions, held: [] };
  const held = await trx.raw(
    `SELECT l.id, l.subscription_id, l.held_at, l.created_at, l.held_until, l.event_id,
            e.feed_id, e.event_type, e.source_key, e.item_key, e.fields, e.payload, e.rendered
       FROM notification_delivery_ledger l JOIN notification_events e ON e.id = l.event_id
      WHERE l.status = 'held' AND l.held_until <= ?::timestamptz AND l.subscription_id = ANY(?::bigint[])
      ORDER BY l.id`,
    [now.toISOString(), array(subscriptions.map((s) => s.id))],
  );
  return { subscriptions, held: held.rows as HeldRow[] };
}

/** One catch-up row to claim: its subscription, its event and the held rows it takes in. */
export interface CatchUpClaim {
  readonly subscriptionId: number;
  readonly feedId: string;
  readonly provider: string;
  readonly sourceKey: string;
  readonly eventId: number;
  readonly heldIds: readonly number[];
}

/**
 * Claims one pending catch-up row per subscription (of `eventType`, once:
 * its key names its last held row) and marks the held rows it takes in
 * `merged` into it, in the release's transaction. Returns how many
 * catch-ups were claimed.
 */
export async function mergeIntoCatchUps(trx: Knex.Transaction, eventType: string, claims: readonly CatchUpClaim[]): Promise<number> {
  if (claims.length === 0) return 0;
  const inserted = await trx.raw(
    `INSERT INTO notification_delivery_ledger (subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, status)
     SELECT v.s, v.k, ?, v.f, v.k, v.e, v.p, 'pending' FROM unnest(?::bigint[], ?::text[], ?::text[], ?::bigint[], ?::text[]) AS v(s, k, f, e, p)
     ON CONFLICT (subscription_id, source_key, event_type) DO NOTHING
     RETURNING id, subscription_id`,
    [
      eventType,
      array(claims.map((c) => c.subscriptionId)),
      array(claims.map((c) => c.sourceKey)),
      array(claims.map((c) => c.feedId)),
      array(claims.map((c) => c.eventId)),
      array(claims.map((c) => c.provider)),
    ],
  );
  const catchUpOf = new Map(
    (inserted.rows as Array<{ id: string | number; subscription_id: string | number }>).map((row) => [Number(row.subscription_id), Number(row.id)]),
  );
  const merged = claims.flatMap((c) => {
    const into = catchUpOf.get(c.subscriptionId);
    return into === undefined ? [] : c.heldIds.map((id) => ({ id, into }));
  });
  await trx.raw(
    `UPDATE notification_delivery_ledger l SET status = 'merged', merged_into = v.catch_up
       FROM unnest(?::bigint[], ?::bigint[]) AS v(id, catch_up)
      WHERE l.id = v.id AND l.status = 'held'`,
    [array(merged.map((m) => m.id)), array(merged.map((m) => m.into))],
  );
  return catchUpOf.size;
}
