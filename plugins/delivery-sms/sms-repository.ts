import type { Knex } from 'knex';
import { pgArray as array, verificationStore } from '#plugin-api';

/** The plugin's own tables (see its migration). Times come from the service clock. */
type Db = Knex | Knex.Transaction;

/** The verification texts and their codes (the kit's store over this plugin's tables). */
export const smsVerifications = verificationStore({ outbox: 'delivery_sms_outbox', codes: 'delivery_sms_codes' });

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
  await smsVerifications.queue(trx, subscriptions, now, 'EXISTS (SELECT 1 FROM delivery_sms_opt_outs o WHERE o.phone = v.recipient)');
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

/** The texts a batch of deliveries sent, by sid (a delivery report names it). */
export async function recordSentMessages(
  db: Knex,
  rows: ReadonlyArray<{ sid: string; ledgerId: number; subscriptionId: number; escalationStep: boolean }>,
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await db.raw(
    `INSERT INTO delivery_sms_messages (sid, ledger_id, subscription_id, escalation_step, status, sent_at, updated_at)
     SELECT v.sid, v.ledger_id, v.subscription_id, v.step, 'sent', ?, ?
       FROM unnest(?::text[], ?::bigint[], ?::bigint[], ?::boolean[]) AS v(sid, ledger_id, subscription_id, step)
         ON CONFLICT (sid) DO NOTHING`,
    [
      now,
      now,
      array(rows.map((r) => r.sid)),
      array(rows.map((r) => r.ledgerId)),
      array(rows.map((r) => r.subscriptionId)),
      array(rows.map((r) => r.escalationStep)),
    ],
  );
}

/** A delivery report: the text's latest status; the subscription and the delivery that sent it, or undefined when no delivery sent that sid. */
export async function recordReport(
  db: Knex,
  sid: string,
  status: string,
  errorCode: number | null,
  now: Date,
): Promise<{ subscriptionId: number; ledgerId: number; escalationStep: boolean } | undefined> {
  const rows: Array<{ subscription_id: string | number; ledger_id: string | number; escalation_step: boolean }> = await db('delivery_sms_messages')
    .where({ sid })
    .update({ status, error_code: errorCode, updated_at: now })
    .returning(['subscription_id', 'ledger_id', 'escalation_step']);
  const row = rows[0];
  return row === undefined
    ? undefined
    : { subscriptionId: Number(row.subscription_id), ledgerId: Number(row.ledger_id), escalationStep: row.escalation_step === true };
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
