import type { Knex } from 'knex';
import { pgArray as array } from '../plugin-api/pg-array.ts';

type Db = Knex | Knex.Transaction;

/**
 * The states of a confirmation, declared once (the database holds them to
 * this list with a CHECK): `awaiting` until the person confirms (its
 * escalation goes on), `confirmed` by them, `unconfirmed` once every step
 * went unanswered (the console's "Not confirmed" list), `reached` by an operator,
 * `withdrawn` when what a notice asked to confirm was called off (a cancelled planned outage).
 */
export const CONFIRMATION_STATES = ['awaiting', 'confirmed', 'unconfirmed', 'reached', 'withdrawn'] as const;
export type ConfirmationState = (typeof CONFIRMATION_STATES)[number];
/** Still to be confirmed: a message asking for it may still be answered. */
export const OPEN_CONFIRMATION_STATES = ['awaiting', 'unconfirmed'] as const satisfies readonly ConfirmationState[];

/** How a confirmation was settled: the person's link or button, a reply (YES), a key in a call (1), or an operator. */
export type ConfirmedVia = 'link' | 'reply' | 'key' | 'operator';

/**
 * For rows about to be worked whose subscriber confirms: makes the
 * confirmation of each urgent alert or notice (`until`: the time to confirm
 * it by) among them (once: its ledger row is unique), names it on the row,
 * and answers the open confirmation each row asks for (an escalation
 * step's or a reminder's row names its own already). A row whose
 * confirmation is settled asks for none.
 */
export async function askConfirmations(
  db: Knex,
  rows: ReadonlyArray<{ ledgerId: number; firstDueAt: Date; until: Date | null }>,
  now: Date,
): Promise<Map<number, number>> {
  if (rows.length === 0) return new Map();
  const ids = array(rows.map((row) => row.ledgerId));
  return db.transaction(async (trx) => {
    await trx.raw(
      `INSERT INTO notification_confirmations (ledger_id, subscription_id, event_id, next_at, until, created_at)
       SELECT l.id, l.subscription_id, l.event_id, v.due, v.until, ?
         FROM unnest(?::bigint[], ?::timestamptz[], ?::timestamptz[]) AS v(id, due, until) JOIN notification_delivery_ledger l ON l.id = v.id
        WHERE (l.urgent OR v.until IS NOT NULL) AND l.confirmation_id IS NULL
       ON CONFLICT (ledger_id) DO NOTHING`,
      [now, ids, array(rows.map((row) => row.firstDueAt)), array(rows.map((row) => row.until))],
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
 * gives up the escalation steps and reminders of theirs still waiting
 * (`skipped`, because `confirmed`; never the alert's own delivery): one
 * transaction. Answers the confirmations it settled.
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
      await skipFollowUps(trx, settled, 'confirmed', 'not sent: the alert was confirmed before this step');
    }
    return settled;
  });
}

/** Gives up the follow-ups (escalation steps, reminders) of these confirmations still waiting; the alert's own delivery goes on. */
async function skipFollowUps(trx: Knex.Transaction, ids: readonly number[], because: string, why: string): Promise<void> {
  await trx.raw(
    `UPDATE notification_delivery_ledger l SET status = 'skipped', skipped_because = ?, lease_token = NULL, lease_until = NULL, last_error = ?
       FROM notification_confirmations c
      WHERE c.id = ANY(?::bigint[]) AND l.confirmation_id = c.id AND l.id <> c.ledger_id AND l.status IN ('pending', 'retrying')`,
    [because, why, array(ids)],
  );
}

/**
 * An end event of these items (a planned outage cancelled): their notices
 * not sent yet are skipped, their open confirmations `withdrawn` and their
 * follow-ups still waiting given up, in the caller's transaction. An urgent alert's confirmation
 * stays open (a restoration does not undo that it had to be heard).
 */
export async function withdrawNotices(trx: Knex.Transaction, feedId: string, itemKeys: readonly string[], now: Date): Promise<number[]> {
  if (itemKeys.length === 0) return [];
  // A notice not sent yet is not sent at all: it would ask to confirm what will not happen.
  await trx.raw(
    `UPDATE notification_delivery_ledger l SET status = 'skipped', skipped_because = 'withdrawn', lease_token = NULL, lease_until = NULL,
            last_error = 'not sent: nothing was left to confirm'
       FROM notification_events e
      WHERE e.id = l.event_id AND e.confirm_by IS NOT NULL AND l.feed_id = ? AND l.item_key = ANY(?::text[])
        AND l.status IN ('pending', 'retrying')`,
    [feedId, array(itemKeys)],
  );
  return withdraw(
    trx,
    `c.id IN (SELECT c2.id FROM notification_confirmations c2 JOIN notification_delivery_ledger l ON l.id = c2.ledger_id
               WHERE l.feed_id = ? AND l.item_key = ANY(?::text[]) AND c2.until IS NOT NULL)`,
    [feedId, array(itemKeys)],
    now,
  );
}

/**
 * A subscription that no longer confirms (an admin took `confirm` off):
 * its open confirmations are `withdrawn` and their follow-ups still
 * waiting given up, in the caller's transaction.
 */
export async function withdrawConfirmationsOf(trx: Knex.Transaction, subscriptionId: number, now: Date): Promise<number[]> {
  return withdraw(trx, 'c.subscription_id = ?', [subscriptionId], now);
}

async function withdraw(trx: Knex.Transaction, where: string, bindings: readonly Knex.Value[], now: Date): Promise<number[]> {
  const result = await trx.raw(
    `UPDATE notification_confirmations c SET state = 'withdrawn', next_at = NULL, settled_at = ?
      WHERE ${where} AND c.state IN ('awaiting', 'unconfirmed')
    RETURNING c.id`,
    [now, ...bindings],
  );
  const withdrawn = (result.rows as Array<{ id: string | number }>).map((row) => Number(row.id));
  if (withdrawn.length > 0) await skipFollowUps(trx, withdrawn, 'withdrawn', 'not sent: nothing was left to confirm');
  return withdrawn;
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
  /** The subscription's own provider: a notice's reminder goes there. */
  readonly provider: string;
  readonly preferences: Record<string, unknown> | null;
  readonly createdAt: Date;
  /** A notice's time to confirm by; null for an urgent alert's. */
  readonly until: Date | null;
  /** A notice's reminders sent. */
  readonly reminded: number;
  readonly ledger: { readonly sourceKey: string; readonly eventType: string; readonly feedId: string; readonly itemKey: string; readonly eventId: number };
}

/** Locks awaiting confirmations whose next step is due by `now` (SKIP LOCKED: two instances never take the same one). */
export async function lockDueConfirmations(trx: Knex.Transaction, now: Date, limit: number): Promise<DueConfirmation[]> {
  const result = await trx.raw(
    `SELECT c.id, c.step, c.subscription_id, s.provider, s.preferences, c.created_at, c.until, c.reminded, l.source_key, l.event_type, l.feed_id, l.item_key, l.event_id
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
    provider: String(row.provider),
    preferences: (row.preferences ?? null) as Record<string, unknown> | null,
    createdAt: new Date(row.created_at as string),
    until: row.until == null ? null : new Date(row.until as string),
    reminded: Number(row.reminded),
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

/** A notice's reminder to send: one pending ledger row to the subscription's own channel, unique per confirmation and reminder. */
export interface ReminderRow {
  readonly confirmation: DueConfirmation;
  /** 1 for the first reminder. */
  readonly reminder: number;
  /** When the reminder after it (or the escalation) is due. */
  readonly nextAt: Date;
}

/** The source key of an escalation step's row: the alert's, and which step (unique with the subscription and event type). */
export const escalationKey = (sourceKey: string, step: number) => `${sourceKey}#confirm-${step}`;
/** The source key of a notice's reminder: the notice's, and which reminder. */
export const reminderKey = (sourceKey: string, reminder: number) => `${sourceKey}#remind-${reminder}`;

interface FollowUp {
  readonly confirmation: DueConfirmation;
  readonly sourceKey: string;
  readonly provider: string;
  /** An escalation step's own; null: the subscription's. */
  readonly destination: string | null;
  readonly urgent: boolean;
}

/** The ledger rows of follow-ups, pending (ON CONFLICT nothing: each is claimed once however often this runs). */
async function insertFollowUps(trx: Knex.Transaction, rows: readonly FollowUp[]): Promise<void> {
  if (rows.length === 0) return;
  const of = <T>(pick: (row: FollowUp) => T) => array(rows.map(pick));
  await trx.raw(
    `INSERT INTO notification_delivery_ledger
       (subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, destination, confirmation_id, status, urgent, next_attempt_at, created_at)
     SELECT v.subscription_id, v.source_key, v.event_type, v.feed_id, v.item_key, v.event_id, v.provider, v.destination, v.confirmation_id, 'pending', v.urgent, now(), now()
       FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::bigint[], ?::boolean[])
         AS v(subscription_id, source_key, event_type, feed_id, item_key, event_id, provider, destination, confirmation_id, urgent)
     ON CONFLICT (subscription_id, source_key, event_type) DO NOTHING`,
    [
      of((r) => r.confirmation.subscriptionId),
      of((r) => r.sourceKey),
      of((r) => r.confirmation.ledger.eventType),
      of((r) => r.confirmation.ledger.feedId),
      of((r) => r.confirmation.ledger.itemKey),
      of((r) => r.confirmation.ledger.eventId),
      of((r) => r.provider),
      of((r) => r.destination),
      of((r) => r.confirmation.id),
      of((r) => r.urgent),
    ],
  );
}

/**
 * Sends the steps and the reminders (their ledger rows: each claimed once
 * however often this runs) and moves each confirmation on, in the caller's
 * transaction; the confirmations given here with neither land in the "Not
 * confirmed" list.
 */
export async function escalate(
  trx: Knex.Transaction,
  steps: readonly EscalationRow[],
  listed: readonly number[],
  reminders: readonly ReminderRow[] = [],
): Promise<void> {
  await insertFollowUps(trx, [
    ...steps.map((s) => ({
      confirmation: s.confirmation,
      sourceKey: escalationKey(s.confirmation.ledger.sourceKey, s.step),
      provider: s.provider,
      destination: s.destination,
      urgent: true,
    })),
    // A reminder is the notice again, as the notice went: to the subscriber's own channel, not urgent (behind a lane's urgent work).
    ...reminders.map((r) => ({
      confirmation: r.confirmation,
      sourceKey: reminderKey(r.confirmation.ledger.sourceKey, r.reminder),
      provider: r.confirmation.provider,
      destination: null,
      urgent: false,
    })),
  ]);
  if (steps.length > 0) {
    await trx.raw(
      `UPDATE notification_confirmations c SET step = v.step, next_at = v.next_at
         FROM unnest(?::bigint[], ?::int[], ?::timestamptz[]) AS v(id, step, next_at) WHERE c.id = v.id`,
      [array(steps.map((s) => s.confirmation.id)), array(steps.map((s) => s.step)), array(steps.map((s) => s.nextAt))],
    );
  }
  if (reminders.length > 0) {
    await trx.raw(
      `UPDATE notification_confirmations c SET reminded = v.reminded, next_at = v.next_at
         FROM unnest(?::bigint[], ?::int[], ?::timestamptz[]) AS v(id, reminded, next_at) WHERE c.id = v.id`,
      [array(reminders.map((r) => r.confirmation.id)), array(reminders.map((r) => r.reminder)), array(reminders.map((r) => r.nextAt))],
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
