import type { Knex } from 'knex';
import { pgArray as array } from '../plugin-api/pg-array.ts';

type Db = Knex | Knex.Transaction;

/**
 * Latest state only: for each freshly claimed row, the older rows of its
 * subscription and source item that still wait in a lane (pending or
 * retrying: never handed to the peer) become `superseded`, pointing at the
 * newest fresh row of that item, and are never sent. The row that replaces
 * them takes over what they carried: the events the subscriber missed
 * (`replaces`, so its message can say so: a restoration that replaces an
 * unsent new-outage message says when the outage began) and their urgency.
 * Rows still on the wire, in a transactional target or held for quiet
 * hours are left alone, and so are escalation steps (to a destination of
 * their own: not the subscriber's messages) and notices to confirm and
 * their reminders (what they ask must reach the person). Returns, for each row that replaced some, what it
 * now carries.
 */
export async function supersedeWaiting(db: Db, freshIds: readonly number[]): Promise<Map<number, { replaces: number[]; urgent: boolean }>> {
  if (freshIds.length === 0) return new Map();
  const result = await db.raw(
    `WITH fresh AS (
       SELECT subscription_id, item_key, max(id) AS id FROM notification_delivery_ledger
        WHERE id = ANY(?::bigint[]) GROUP BY subscription_id, item_key),
     old AS (
       UPDATE notification_delivery_ledger o
          SET status = 'superseded', lease_until = NULL, superseded_by = f.id
         FROM fresh f
        WHERE o.subscription_id = f.subscription_id AND o.item_key = f.item_key AND o.id < f.id AND o.status IN ('pending', 'retrying')
          AND o.destination IS NULL
          AND NOT EXISTS (SELECT 1 FROM notification_events e WHERE e.id = o.event_id AND e.confirm_by IS NOT NULL)
        RETURNING o.superseded_by AS by, o.event_id, o.replaces, o.urgent),
     carried AS (
       SELECT by, array_agg(DISTINCT ev ORDER BY ev) AS events, bool_or(urgent) AS urgent
         FROM old, LATERAL unnest(array_append(COALESCE(old.replaces, '{}'::bigint[]), old.event_id)) AS ev
        GROUP BY by)
     UPDATE notification_delivery_ledger n
        SET replaces = (SELECT array_agg(DISTINCT ev ORDER BY ev) FROM unnest(COALESCE(n.replaces, '{}'::bigint[]) || c.events) AS ev),
            urgent = n.urgent OR c.urgent
       FROM carried c
      WHERE n.id = c.by
      RETURNING n.id, n.replaces, n.urgent`,
    [array(freshIds)],
  );
  const rows = result.rows as Array<{ id: string | number; replaces: Array<string | number>; urgent: boolean }>;
  return new Map(rows.map((row) => [Number(row.id), { replaces: row.replaces.map(Number), urgent: row.urgent === true }]));
}

/**
 * Cooldown for the event types a feed coalesces: each freshly claimed row
 * of such a type waits until the end of the cooldown after its item's
 * last delivery to that subscription (one on the wire, or handed to a
 * transactional target, counts as delivered now), so the subscriber gets
 * the latest state once, when the window ends.
 */
export async function waitOutCooldown(db: Db, ids: readonly number[], cooldownSeconds: number): Promise<void> {
  if (ids.length === 0) return;
  await db.raw(
    `UPDATE notification_delivery_ledger l
        SET next_attempt_at = GREATEST(l.next_attempt_at, last.delivered + make_interval(secs => ?))
       FROM (SELECT c.id, max(COALESCE(d.delivered_at, now())) AS delivered
               FROM notification_delivery_ledger c
               JOIN notification_delivery_ledger d
                 ON d.subscription_id = c.subscription_id AND d.item_key = c.item_key
                AND d.status IN ('delivered', 'delivering', 'queued') AND d.destination IS NULL
              WHERE c.id = ANY(?::bigint[])
              GROUP BY c.id) last
      WHERE l.id = last.id`,
    [cooldownSeconds, array(ids)],
  );
}

/** Whether each of these events follows an earlier event of its item (only then can a claim of it supersede anything). */
export async function followsEarlierEvent(db: Db, events: ReadonlyArray<{ eventId: number; feedId: string; itemKey: string }>): Promise<boolean[]> {
  if (events.length === 0) return [];
  const result = await db.raw(
    `SELECT v.n, EXISTS (SELECT 1 FROM notification_events e WHERE e.feed_id = v.f AND e.item_key = v.k AND e.id < v.id) AS follows
       FROM unnest(?::bigint[], ?::text[], ?::text[]) WITH ORDINALITY AS v(id, f, k, n)`,
    [array(events.map((e) => e.eventId)), array(events.map((e) => e.feedId)), array(events.map((e) => e.itemKey))],
  );
  const follows = new Array<boolean>(events.length).fill(false);
  for (const row of result.rows as Array<{ n: string | number; follows: boolean }>) follows[Number(row.n) - 1] = row.follows === true;
  return follows;
}
