import type { Knex } from 'knex';
import { pgArray as array } from '#plugin-api';
import type { StoredCode } from './verification-code.ts';

/** The plugin's own tables (see its migration). Times come from the service clock. */
type Db = Knex | Knex.Transaction;

export interface OutboxItem {
  readonly id: number;
  readonly subscriptionId: number;
  readonly recipient: string;
  readonly feedId: string;
  /** The subscriber's language: the text is written in it. */
  readonly language: string;
  /** This attempt's number: the lease counts it. */
  readonly attempt: number;
}

export interface OutboxResult {
  readonly id: number;
  /** `deferred`: waiting again without its attempt counted (the lane was paused: the gateway said to slow down). */
  readonly state: 'sent' | 'pending' | 'dead' | 'deferred';
  readonly dueAt: Date | null;
  readonly error: string | null;
  readonly sid: string | null;
}

/**
 * Queues one verification text per new subscription, and its (empty) code
 * row, in the create's transaction; none to a number that replied STOP
 * (its subscription waits until the number replies START).
 */
export async function queueVerifications(
  trx: Knex.Transaction,
  subscriptions: ReadonlyArray<{ id: number; destination: string; feedId: string; language?: string }>,
  now: Date,
): Promise<void> {
  const ids = array(subscriptions.map((s) => s.id));
  await trx.raw('INSERT INTO delivery_sms_codes (subscription_id) SELECT unnest(?::bigint[]) ON CONFLICT DO NOTHING', [ids]);
  await trx.raw(
    `INSERT INTO delivery_sms_outbox (subscription_id, recipient, feed_id, language, state, due_at, created_at)
     SELECT v.id, v.recipient, v.feed_id, v.language, 'pending', ?, ? FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[]) AS v(id, recipient, feed_id, language)
      WHERE NOT EXISTS (SELECT 1 FROM delivery_sms_opt_outs o WHERE o.phone = v.recipient)`,
    [
      now,
      now,
      ids,
      array(subscriptions.map((s) => s.destination)),
      array(subscriptions.map((s) => s.feedId)),
      array(subscriptions.map((s) => s.language ?? 'en')),
    ],
  );
}

/**
 * Leases due texts (pending, or processing past a lapsed lease): SKIP
 * LOCKED, one attempt counted each. Leases are judged by the database's
 * clock, the one every instance shares; a retry falls due by the service's.
 */
export async function leaseOutbox(db: Knex, limit: number, token: string, leaseSeconds: number, now: Date): Promise<OutboxItem[]> {
  const result = await db.raw(
    `UPDATE delivery_sms_outbox o SET state = 'processing', attempts = o.attempts + 1, lease_token = ?, due_at = now() + make_interval(secs => ?)
       FROM (SELECT id FROM delivery_sms_outbox WHERE (state = 'pending' AND due_at <= ?) OR (state = 'processing' AND due_at <= now())
              ORDER BY due_at, id LIMIT ? FOR UPDATE SKIP LOCKED) due
      WHERE o.id = due.id
  RETURNING o.id, o.subscription_id, o.recipient, o.feed_id, o.language, o.attempts`,
    [token, leaseSeconds, now, limit],
  );
  return (result.rows as Array<Record<string, string | number>>).map((row) => ({
    id: Number(row.id),
    subscriptionId: Number(row.subscription_id),
    recipient: String(row.recipient),
    feedId: String(row.feed_id),
    language: String(row.language),
    attempt: Number(row.attempts),
  }));
}

export async function renewOutbox(db: Knex, token: string, leaseSeconds: number): Promise<void> {
  await db('delivery_sms_outbox')
    .where({ lease_token: token, state: 'processing' })
    .update({ due_at: db.raw('now() + make_interval(secs => ?)', [leaseSeconds]) });
}

/** Records results only where this lease still holds. */
export async function settleOutbox(db: Knex, token: string, results: readonly OutboxResult[], now: Date): Promise<void> {
  if (results.length === 0) return;
  await db.raw(
    `UPDATE delivery_sms_outbox o
        SET state = CASE WHEN v.state = 'deferred' THEN 'pending' ELSE v.state END,
            attempts = CASE WHEN v.state = 'deferred' THEN GREATEST(o.attempts - 1, 0) ELSE o.attempts END,
            due_at = COALESCE(v.due_at, o.due_at), last_error = v.error, sid = v.sid, lease_token = NULL,
            sent_at = CASE WHEN v.state = 'sent' THEN ?::timestamptz ELSE o.sent_at END
       FROM unnest(?::bigint[], ?::text[], ?::timestamptz[], ?::text[], ?::text[]) AS v(id, state, due_at, error, sid)
      WHERE o.id = v.id AND o.lease_token = ? AND o.state = 'processing'`,
    [
      now,
      array(results.map((r) => r.id)),
      array(results.map((r) => r.state)),
      array(results.map((r) => r.dueAt)),
      array(results.map((r) => r.error)),
      array(results.map((r) => r.sid)),
      token,
    ],
  );
}

export async function nextOutboxDueInMs(db: Knex, now: Date): Promise<number | null> {
  // A retry falls due by the service clock, a lease lapses by the database's.
  const result = await db.raw(
    `SELECT 1000 * EXTRACT(EPOCH FROM min(CASE WHEN state = 'processing' THEN due_at - now() ELSE due_at - ?::timestamptz END)) AS ms
       FROM delivery_sms_outbox WHERE state IN ('pending', 'processing')`,
    [now],
  );
  const ms = (result.rows as Array<{ ms: string | number | null }>)[0]?.ms;
  return ms === null || ms === undefined ? null : Number(ms);
}

/** A freshly drawn code replaces the one before (its tries start again). */
export async function storeCode(db: Db, subscriptionId: number, codeHash: string, expiresAt: Date): Promise<void> {
  await db('delivery_sms_codes')
    .insert({ subscription_id: subscriptionId, code_hash: codeHash, expires_at: expiresAt, tries: 0 })
    .onConflict('subscription_id')
    .merge();
}

/** The stored code, locked for the check (FOR UPDATE: two tries at once count twice). */
export async function lockCode(trx: Knex.Transaction, subscriptionId: number): Promise<StoredCode | undefined> {
  const row = await trx('delivery_sms_codes').where({ subscription_id: subscriptionId }).forUpdate().first();
  return row && { codeHash: row.code_hash, expiresAt: row.expires_at ? new Date(row.expires_at) : null, tries: Number(row.tries) };
}

export async function countTry(trx: Knex.Transaction, subscriptionId: number): Promise<void> {
  await trx('delivery_sms_codes').where({ subscription_id: subscriptionId }).increment('tries', 1);
}

/** A STOP: verification texts still to send to these subscriptions are given up (never sent after the STOP). */
export async function cancelVerifications(db: Db, subscriptionIds: readonly number[]): Promise<void> {
  if (subscriptionIds.length === 0) return;
  await db.raw(
    `UPDATE delivery_sms_outbox SET state = 'dead', last_error = 'the number replied STOP', lease_token = NULL
      WHERE subscription_id = ANY(?::bigint[]) AND state IN ('pending', 'processing')`,
    [array(subscriptionIds)],
  );
}

export async function forgetCodes(db: Db, subscriptionIds: readonly number[]): Promise<void> {
  if (subscriptionIds.length === 0) return;
  await db.raw('DELETE FROM delivery_sms_codes WHERE subscription_id = ANY(?::bigint[])', [array(subscriptionIds)]);
}

/** The texts a batch of deliveries sent, by sid (a delivery report names it). */
export async function recordSentMessages(db: Knex, rows: ReadonlyArray<{ sid: string; ledgerId: number; subscriptionId: number }>, now: Date): Promise<void> {
  if (rows.length === 0) return;
  await db.raw(
    `INSERT INTO delivery_sms_messages (sid, ledger_id, subscription_id, status, sent_at, updated_at)
     SELECT v.sid, v.ledger_id, v.subscription_id, 'sent', ?, ? FROM unnest(?::text[], ?::bigint[], ?::bigint[]) AS v(sid, ledger_id, subscription_id)
         ON CONFLICT (sid) DO NOTHING`,
    [now, now, array(rows.map((r) => r.sid)), array(rows.map((r) => r.ledgerId)), array(rows.map((r) => r.subscriptionId))],
  );
}

/** A delivery report: the text's latest status; the subscription and the delivery that sent it, or undefined when no delivery sent that sid. */
export async function recordReport(
  db: Knex,
  sid: string,
  status: string,
  errorCode: number | null,
  now: Date,
): Promise<{ subscriptionId: number; ledgerId: number } | undefined> {
  const rows: Array<{ subscription_id: string | number; ledger_id: string | number }> = await db('delivery_sms_messages')
    .where({ sid })
    .update({ status, error_code: errorCode, updated_at: now })
    .returning(['subscription_id', 'ledger_id']);
  return rows[0] === undefined ? undefined : { subscriptionId: Number(rows[0].subscription_id), ledgerId: Number(rows[0].ledger_id) };
}

export async function messageBySid(db: Knex, sid: string): Promise<{ status: string; errorCode: number | null; ledgerId: number } | undefined> {
  const row = await db('delivery_sms_messages').where({ sid }).first();
  return row && { status: row.status, errorCode: row.error_code === null ? null : Number(row.error_code), ledgerId: Number(row.ledger_id) };
}

/** A number replied STOP: no verification text goes to it until it replies START. */
export async function optOut(db: Db, phone: string, now: Date): Promise<void> {
  await db.raw('INSERT INTO delivery_sms_opt_outs (phone, stopped_at) VALUES (?, ?) ON CONFLICT (phone) DO UPDATE SET stopped_at = EXCLUDED.stopped_at', [
    phone,
    now,
  ]);
}

/** A number replied START (or YES): its STOP no longer holds. */
export async function optIn(db: Db, phone: string): Promise<void> {
  await db('delivery_sms_opt_outs').where({ phone }).delete();
}

/** Records a reply's MessageSid; false when it was taken before (a replay, or the gateway posting it twice). */
export async function firstTimeReply(db: Knex, sid: string, now: Date): Promise<boolean> {
  const result = await db.raw('INSERT INTO delivery_sms_inbound (sid, received_at) VALUES (?, ?) ON CONFLICT (sid) DO NOTHING', [sid, now]);
  return Number(result.rowCount ?? 0) === 1;
}
