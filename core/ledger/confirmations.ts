import type { Knex } from 'knex';
import { pgArray as array } from '../plugin-api/pg-array.ts';

type Db = Knex | Knex.Transaction;

/**
 * The states of a confirmation, declared once (the database holds them to
 * this list with a CHECK): `awaiting` until the person confirms (its
 * escalation goes on), `confirmed` by them, `unconfirmed` once every step
 * went unanswered (the console's "Not confirmed" list), `reached` by an operator.
 */
export const CONFIRMATION_STATES = ['awaiting', 'confirmed', 'unconfirmed', 'reached'] as const;
export type ConfirmationState = (typeof CONFIRMATION_STATES)[number];
/** Still to be confirmed: a message asking for it may still be answered. */
export const OPEN_CONFIRMATION_STATES = ['awaiting', 'unconfirmed'] as const satisfies readonly ConfirmationState[];

/** How a confirmation was settled: the person's link or button, a reply (YES), a key in a call (1), or an operator. */
export type ConfirmedVia = 'link' | 'reply' | 'key' | 'operator';

/**
 * For rows about to be worked whose subscriber confirms: makes the
 * confirmation of each urgent alert among them (once: its ledger row is
 * unique), names it on the row, and answers the open confirmation each
 * row asks for (an escalation step's row names its own already). A row
 * whose confirmation is settled asks for none.
 */
export async function askConfirmations(db: Knex, rows: ReadonlyArray<{ ledgerId: number; firstDueAt: Date }>, now: Date): Promise<Map<number, number>> {
  if (rows.length === 0) return new Map();
  const ids = array(rows.map((row) => row.ledgerId));
  return db.transaction(async (trx) => {
    await trx.raw(
      `INSERT INTO notification_confirmations (ledger_id, subscription_id, event_id, next_at, created_at)
       SELECT l.id, l.subscription_id, l.event_id, v.due, ?
         FROM unnest(?::bigint[], ?::timestamptz[]) AS v(id, due) JOIN notification_delivery_ledger l ON l.id = v.id
        WHERE l.urgent AND l.confirmation_id IS NULL
       ON CONFLICT (ledger_id) DO NOTHING`,
      [now, ids, array(rows.map((row) => row.firstDueAt))],
    );
    await trx.raw(
      `UPDATE notification_delivery_ledger l SET confirmation_id = c.id
         FROM notification_confirmations c
        WHERE c.ledger_id = l.id AND l.id = ANY(?::bigint[]) AND l.confirmation_id IS NULL`,
      [ids],
    );
    const result = await trx.raw(
      `SELECT l.id, l.confirmation_id FROM notification_delivery_ledger l JOIN notification_confirmations c ON c.id = l.confirmation_id
        WHERE l.id = ANY(?::bigint[]) AND c.state IN ('awaiting', 'unconfirmed')`,
      [ids],
    );
    return new Map(
      (result.rows as Array<{ id: string | number; confirmation_id: string | number }>).map((row) => [Number(row.id), Number(row.confirmation_id)]),
    );
  });
}

/**
 * Settles open confirmations as confirmed (or reached, by an operator), and
 * gives up the escalation steps of theirs still waiting (`skipped`, because
 * `confirmed`): one transaction. Answers the confirmations it settled.
 */
export async function settleConfirmations(db: Knex, ids: readonly number[], via: ConfirmedVia, by: string | null, now: Date): Promise<number[]> {
  if (ids.length === 0) return [];
  return db.transaction(async (trx) => {
    const result = await trx.raw(
      `UPDATE notification_confirmations SET state = ?, settled_via = ?, settled_by = ?, settled_at = ?, next_at = NULL
        WHERE id = ANY(?::bigint[]) AND state IN ('awaiting', 'unconfirmed')
    RETURNING id`,
      [via === 'operator' ? 'reached' : 'confirmed', via, by, now, array(ids)],
    );
    const settled = (result.rows as Array<{ id: string | number }>).map((row) => Number(row.id));
    if (settled.length > 0) {
      await trx.raw(
        `UPDATE notification_delivery_ledger SET status = 'skipped', skipped_because = 'confirmed', lease_token = NULL, lease_until = NULL,
                last_error = 'not sent: the alert was confirmed before this step'
          WHERE confirmation_id = ANY(?::bigint[]) AND status IN ('pending', 'retrying') AND destination IS NOT NULL`,
        [array(settled)],
      );
    }
    return settled;
  });
}

/** The confirmation a delivery asks for (its own, or the one its escalation step belongs to); null for none. */
export async function confirmationOfDelivery(db: Db, ledgerId: number): Promise<number | null> {
  const row = await db('notification_delivery_ledger').where({ id: ledgerId }).first('confirmation_id');
  return row?.confirmation_id == null ? null : Number(row.confirmation_id);
}

/**
 * The open confirmations a reply from this destination answers: those a
 * message of this provider went to it for (the subscription's own
 * destination, or an escalation step's), made after `since` (the service's clock, as they were made).
 */
export async function openConfirmationsTo(db: Db, provider: string, destination: string, since: Date): Promise<number[]> {
  const result = await db.raw(
    `SELECT DISTINCT c.id FROM notification_confirmations c
       JOIN notification_delivery_ledger l ON l.confirmation_id = c.id
       JOIN notification_subscriptions s ON s.id = l.subscription_id
      WHERE c.state IN ('awaiting', 'unconfirmed') AND l.provider = ? AND COALESCE(l.destination, s.destination) = ?
        AND l.status IN ('delivered', 'delivering', 'queued') AND c.created_at > ?`,
    [provider, destination, since],
  );
  return (result.rows as Array<{ id: string | number }>).map((row) => Number(row.id));
}

/** A due confirmation, locked for its escalation, with what the next step needs. */
export interface DueConfirmation {
  readonly id: number;
  readonly step: number;
  readonly subscriptionId: number;
  readonly preferences: Record<string, unknown> | null;
  readonly ledger: { readonly sourceKey: string; readonly eventType: string; readonly feedId: string; readonly itemKey: string; readonly eventId: number };
}

/** Locks awaiting confirmations whose next step is due by `now` (SKIP LOCKED: two instances never take the same one). */
export async function lockDueConfirmations(trx: Knex.Transaction, now: Date, limit: number): Promise<DueConfirmation[]> {
  const result = await trx.raw(
    `SELECT c.id, c.step, c.subscription_id, s.preferences, l.source_key, l.event_type, l.feed_id, l.item_key, l.event_id
       FROM notification_confirmations c
       JOIN notification_subscriptions s ON s.id = c.subscription_id
       JOIN notification_delivery_ledger l ON l.id = c.ledger_id
      WHERE c.state = 'awaiting' AND c.next_at <= ?
      ORDER BY c.next_at, c.id LIMIT ? FOR UPDATE OF c SKIP LOCKED`,
    [now, limit],
  );
  return (result.rows as Array<Record<string, unknown>>).map((row) => ({
    id: Number(row.id),
    step: Number(row.step),
    subscriptionId: Number(row.subscription_id),
    preferences: (row.preferences ?? null) as Record<string, unknown> | null,
    ledger: {
      sourceKey: String(row.source_key),
      eventType: String(row.event_type),
      feedId: String(row.feed_id),
      itemKey: String(row.item_key),
      eventId: Number(row.event_id),
    },
  }));
}

/** An escalation step to send: one pending, urgent ledger row to the step's own destination, unique per confirmation and step. */
export interface EscalationRow {
  readonly confirmation: DueConfirmation;
  /** 1 for the first step. */
  readonly step: number;
  readonly provider: string;
  readonly destination: string;
  /** When the step after it (or the list) is due. */
  readonly nextAt: Date;
}

/** The source key of an escalation step's row: the alert's, and which step (unique with the subscription and event type). */
export const escalationKey = (sourceKey: string, step: number) => `${sourceKey}#confirm-${step}`;

/**
 * Sends the steps (their ledger rows, ON CONFLICT nothing: a step is
 * claimed once however often this runs) and moves each confirmation on,
 * in the caller's transaction; the confirmations given here with no step
 * land in the "Not confirmed" list.
 */
export async function escalate(trx: Knex.Transaction, steps: readonly EscalationRow[], listed: readonly number[]): Promise<void> {
  if (steps.length > 0) {
    await trx.raw(
      `INSERT INTO notification_delivery_ledger
         (subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, destination, confirmation_id, status, urgent, next_attempt_at, created_at)
       SELECT v.subscription_id, v.source_key, v.event_type, v.feed_id, v.item_key, v.event_id, v.provider, v.destination, v.confirmation_id, 'pending', true, now(), now()
         FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::bigint[])
           AS v(subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, destination, confirmation_id)
       ON CONFLICT (subscription_id, source_key, event_type) DO NOTHING`,
      [
        array(steps.map((s) => s.confirmation.subscriptionId)),
        array(steps.map((s) => escalationKey(s.confirmation.ledger.sourceKey, s.step))),
        array(steps.map((s) => s.confirmation.ledger.eventType)),
        array(steps.map((s) => s.confirmation.ledger.feedId)),
        array(steps.map((s) => s.confirmation.ledger.itemKey)),
        array(steps.map((s) => s.confirmation.ledger.eventId)),
        array(steps.map((s) => s.provider)),
        array(steps.map((s) => s.destination)),
        array(steps.map((s) => s.confirmation.id)),
      ],
    );
    await trx.raw(
      `UPDATE notification_confirmations c SET step = v.step, next_at = v.next_at
         FROM unnest(?::bigint[], ?::int[], ?::timestamptz[]) AS v(id, step, next_at) WHERE c.id = v.id`,
      [array(steps.map((s) => s.confirmation.id)), array(steps.map((s) => s.step)), array(steps.map((s) => s.nextAt))],
    );
  }
  if (listed.length > 0) {
    await trx.raw(`UPDATE notification_confirmations SET state = 'unconfirmed', next_at = NULL WHERE id = ANY(?::bigint[]) AND state = 'awaiting'`, [
      array(listed),
    ]);
  }
}

/** One entry of the "Not confirmed" list. */
export interface NotConfirmed {
  readonly id: number;
  readonly publicId: string;
  readonly displayName: string;
  readonly feedId: string;
  readonly eventType: string;
  readonly title: string;
  readonly steps: number;
  readonly since: string;
}

/** The console's "Not confirmed" list: every step went and nobody confirmed; oldest first. */
export async function notConfirmed(db: Db, limit: number): Promise<NotConfirmed[]> {
  const result = await db.raw(
    `SELECT c.id, s.public_id, s.display_name, s.feed_id, e.event_type, e.rendered->>'title' AS title, c.step, c.created_at
       FROM notification_confirmations c
       JOIN notification_subscriptions s ON s.id = c.subscription_id
       JOIN notification_events e ON e.id = c.event_id
      WHERE c.state = 'unconfirmed'
      ORDER BY c.created_at, c.id LIMIT ?`,
    [limit],
  );
  return (result.rows as Array<Record<string, unknown>>).map((row) => ({
    id: Number(row.id),
    publicId: String(row.public_id),
    displayName: String(row.display_name),
    feedId: String(row.feed_id),
    eventType: String(row.event_type),
    title: String(row.title ?? ''),
    steps: Number(row.step),
    since: new Date(row.created_at as string).toISOString(),
  }));
}
