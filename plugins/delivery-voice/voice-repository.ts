import type { Knex } from 'knex';
import { pgArray as array, verificationStore } from '#plugin-api';

/** The plugin's own tables (see its migration). Times come from the service clock. */
type Db = Knex | Knex.Transaction;

/** The verification calls and their codes (the kit's store over this plugin's tables). */
export const callVerifications = verificationStore({ outbox: 'delivery_voice_outbox', codes: 'delivery_voice_codes' });

export interface PlacedCall {
  readonly sid: string;
  readonly purpose: 'alert' | 'verification';
  readonly subscriptionId: number;
  readonly ledgerId: number | null;
  readonly language: string;
}

/** The calls placed, by sid (their status and key callbacks name it). */
export async function recordCalls(db: Db, calls: readonly PlacedCall[], now: Date): Promise<void> {
  if (calls.length === 0) return;
  await db.raw(
    `INSERT INTO delivery_voice_calls (sid, purpose, subscription_id, ledger_id, language, placed_at, updated_at)
     SELECT v.sid, v.purpose, v.subscription_id, v.ledger_id, v.language, ?, ?
       FROM unnest(?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::text[]) AS v(sid, purpose, subscription_id, ledger_id, language)
         ON CONFLICT (sid) DO NOTHING`,
    [
      now,
      now,
      array(calls.map((c) => c.sid)),
      array(calls.map((c) => c.purpose)),
      array(calls.map((c) => c.subscriptionId)),
      array(calls.map((c) => c.ledgerId)),
      array(calls.map((c) => c.language)),
    ],
  );
}

/** A call's latest status (or the key pressed); the call as placed, or undefined for a sid this service never placed. */
export async function updateCall(db: Db, sid: string, change: { status?: string; keyPressed?: string }, now: Date): Promise<PlacedCall | undefined> {
  const rows: Array<{ sid: string; purpose: PlacedCall['purpose']; subscription_id: string | number; ledger_id: string | number | null; language: string }> =
    await db('delivery_voice_calls')
      .where({ sid })
      .update({ ...(change.status ? { status: change.status } : {}), ...(change.keyPressed ? { key_pressed: change.keyPressed } : {}), updated_at: now })
      .returning(['sid', 'purpose', 'subscription_id', 'ledger_id', 'language']);
  const row = rows[0];
  return (
    row && {
      sid: row.sid,
      purpose: row.purpose,
      subscriptionId: Number(row.subscription_id),
      ledgerId: row.ledger_id === null ? null : Number(row.ledger_id),
      language: row.language,
    }
  );
}
