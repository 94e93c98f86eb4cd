import type { Knex } from 'knex';
import { Errors } from './errors.ts';
import { pgArray as array } from './pg-array.ts';
import { checkCode, MAX_CODE_TRIES, type CodeCheck, type StoredCode } from './verification-code.ts';

/** One verification message to send (a text, a call), leased. */
export interface VerificationItem {
  readonly id: number;
  readonly subscriptionId: number;
  readonly recipient: string;
  readonly feedId: string;
  /** The subscriber's language: the message is written (or read) in it. */
  readonly language: string;
  /** This attempt's number: the lease counts it. */
  readonly attempt: number;
}

export interface VerificationResult {
  readonly id: number;
  /** `deferred`: waiting again without its attempt counted (the lane was paused: the peer said to slow down). */
  readonly state: 'sent' | 'pending' | 'dead' | 'deferred';
  readonly dueAt: Date | null;
  readonly error: string | null;
  /** The message's id at the gateway. */
  readonly sid: string | null;
}

/**
 * A target's two verification tables, as a target that verifies by a code
 * (a text, a call) keeps them: an outbox of messages to send (columns
 * id, subscription_id, recipient, feed_id, language, state pending |
 * processing | sent | dead, attempts, due_at, lease_token, last_error, sid,
 * created_at, sent_at) and the codes (subscription_id, code_hash,
 * expires_at, tries). The code is drawn when the message is sent and only
 * its hash is stored. Leases are judged by the database's clock, the one
 * every instance shares; a retry falls due by the service's.
 */
export interface VerificationStore {
  /** One message per new subscription, and its (empty) code row, in the create's transaction; `unless` (SQL on `v.recipient`) leaves some out. */
  queue(
    trx: Knex.Transaction,
    subscriptions: ReadonlyArray<{ id: number; destination: string; feedId: string; language?: string }>,
    now: Date,
    unless?: string,
  ): Promise<void>;
  lease(db: Knex, limit: number, token: string, leaseSeconds: number, now: Date): Promise<VerificationItem[]>;
  renew(db: Knex, token: string, leaseSeconds: number): Promise<void>;
  /** Records results only where this lease still holds. */
  settle(db: Knex, token: string, results: readonly VerificationResult[], now: Date): Promise<void>;
  nextDueInMs(db: Knex, now: Date): Promise<number | null>;
  /** A freshly drawn code replaces the one before (its tries start again). */
  storeCode(db: Knex | Knex.Transaction, subscriptionId: number, codeHash: string, expiresAt: Date): Promise<void>;
  forgetCodes(db: Knex | Knex.Transaction, subscriptionIds: readonly number[]): Promise<void>;
  /**
   * Judges a code given for a subscription, in one transaction with the
   * stored code locked (two tries at once count twice): a wrong one counts
   * a try; the right one runs `onRight` (make the subscription active) and
   * forgets the code.
   */
  check(
    db: Knex,
    subscriptionId: number,
    given: string,
    now: Date,
    onRight: (trx: Knex.Transaction) => Promise<void>,
  ): Promise<{ check: CodeCheck; triesLeft: number }>;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function verificationStore(tables: { readonly outbox: string; readonly codes: string }): VerificationStore {
  const { outbox, codes } = tables;
  if (!IDENTIFIER.test(outbox) || !IDENTIFIER.test(codes)) throw new Error('verificationStore: table names are lower-case SQL identifiers');

  const lockCode = async (trx: Knex.Transaction, subscriptionId: number): Promise<StoredCode | undefined> => {
    const row = await trx(codes).where({ subscription_id: subscriptionId }).forUpdate().first();
    return row && { codeHash: row.code_hash, expiresAt: row.expires_at ? new Date(row.expires_at) : null, tries: Number(row.tries) };
  };
  const forgetCodes = async (db: Knex | Knex.Transaction, subscriptionIds: readonly number[]) => {
    if (subscriptionIds.length === 0) return;
    await db.raw(`DELETE FROM ${codes} WHERE subscription_id = ANY(?::bigint[])`, [array(subscriptionIds)]);
  };

  return {
    async queue(trx, subscriptions, now, unless) {
      const ids = array(subscriptions.map((s) => s.id));
      await trx.raw(`INSERT INTO ${codes} (subscription_id) SELECT unnest(?::bigint[]) ON CONFLICT DO NOTHING`, [ids]);
      await trx.raw(
        `INSERT INTO ${outbox} (subscription_id, recipient, feed_id, language, state, due_at, created_at)
         SELECT v.id, v.recipient, v.feed_id, v.language, 'pending', ?, ? FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[]) AS v(id, recipient, feed_id, language)
          ${unless ? `WHERE NOT (${unless})` : ''}`,
        [
          now,
          now,
          ids,
          array(subscriptions.map((s) => s.destination)),
          array(subscriptions.map((s) => s.feedId)),
          array(subscriptions.map((s) => s.language ?? 'en')),
        ],
      );
    },

    async lease(db, limit, token, leaseSeconds, now) {
      const result = await db.raw(
        `UPDATE ${outbox} o SET state = 'processing', attempts = o.attempts + 1, lease_token = ?, due_at = now() + make_interval(secs => ?)
           FROM (SELECT id FROM ${outbox} WHERE (state = 'pending' AND due_at <= ?) OR (state = 'processing' AND due_at <= now())
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
    },

    async renew(db, token, leaseSeconds) {
      await db(outbox)
        .where({ lease_token: token, state: 'processing' })
        .update({ due_at: db.raw('now() + make_interval(secs => ?)', [leaseSeconds]) });
    },

    async settle(db, token, results, now) {
      if (results.length === 0) return;
      await db.raw(
        `UPDATE ${outbox} o
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
    },

    async nextDueInMs(db, now) {
      const result = await db.raw(
        `SELECT 1000 * EXTRACT(EPOCH FROM min(CASE WHEN state = 'processing' THEN due_at - now() ELSE due_at - ?::timestamptz END)) AS ms
           FROM ${outbox} WHERE state IN ('pending', 'processing')`,
        [now],
      );
      const ms = (result.rows as Array<{ ms: string | number | null }>)[0]?.ms;
      return ms === null || ms === undefined ? null : Number(ms);
    },

    async storeCode(db, subscriptionId, codeHash, expiresAt) {
      await db(codes).insert({ subscription_id: subscriptionId, code_hash: codeHash, expires_at: expiresAt, tries: 0 }).onConflict('subscription_id').merge();
    },

    forgetCodes,

    check: (db, subscriptionId, given, now, onRight) =>
      db.transaction(async (trx) => {
        const stored = await lockCode(trx, subscriptionId);
        const check = checkCode(stored, subscriptionId, given, now);
        if (check === 'wrong') await trx(codes).where({ subscription_id: subscriptionId }).increment('tries', 1);
        if (check === 'ok') {
          await onRight(trx);
          await forgetCodes(trx, [subscriptionId]);
        }
        return { check, triesLeft: MAX_CODE_TRIES - (stored?.tries ?? 0) - 1 };
      }),
  };
}

/**
 * The 400 a code that did not verify is answered with (pure), naming
 * `body/code`: how many tries are left, or `again`, how to get a new code
 * (`reply YES to the text, or subscribe again for a new code`).
 */
export function codeRefusal(verdict: { readonly check: Exclude<CodeCheck, 'ok'>; readonly triesLeft: number }, again: string, wait: string): Error {
  switch (verdict.check) {
    case 'wrong':
      return new Errors.InvalidField(`body/code is wrong (${Math.max(0, verdict.triesLeft)} ${verdict.triesLeft === 1 ? 'try' : 'tries'} left)`);
    case 'expired':
      return new Errors.InvalidField(`body/code has expired: ${again}`);
    case 'exhausted':
      return new Errors.InvalidField(`body/code: ${MAX_CODE_TRIES} wrong tries; ${again}`);
    case 'none':
      return new Errors.InvalidField(`body/code: ${wait}`);
  }
}

/**
 * Creates the two tables a `verificationStore` works on, in a plugin's
 * migration: rows belong to a subscription and go with it.
 */
export async function createVerificationTables(knex: Knex, tables: { readonly outbox: string; readonly codes: string }): Promise<void> {
  const { outbox, codes } = tables;
  if (!IDENTIFIER.test(outbox) || !IDENTIFIER.test(codes)) throw new Error('createVerificationTables: table names are lower-case SQL identifiers');
  await knex.schema.createTable(codes, (t) => {
    t.bigInteger('subscription_id').primary().references('id').inTable('notification_subscriptions').onDelete('CASCADE');
    t.text('code_hash');
    t.timestamp('expires_at', { useTz: true });
    t.integer('tries').notNullable().defaultTo(0);
  });
  await knex.schema.createTable(outbox, (t) => {
    t.bigIncrements('id');
    t.bigInteger('subscription_id').notNullable().references('id').inTable('notification_subscriptions').onDelete('CASCADE');
    t.text('recipient').notNullable();
    t.text('feed_id').notNullable();
    t.text('language').notNullable().defaultTo('en');
    t.text('state').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('due_at', { useTz: true }).notNullable();
    t.text('lease_token');
    t.text('last_error');
    t.text('sid');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('sent_at', { useTz: true });
  });
  await knex.raw(`ALTER TABLE ${outbox} ADD CONSTRAINT ${outbox}_state CHECK (state IN ('pending', 'processing', 'sent', 'dead'))`);
  await knex.raw(`CREATE INDEX ${outbox}_due ON ${outbox} (due_at) WHERE state IN ('pending', 'processing')`);
  await knex.raw(`CREATE INDEX ${outbox}_subscription ON ${outbox} (subscription_id)`);
  await knex.raw(`CREATE INDEX ${outbox}_settled ON ${outbox} (created_at) WHERE state IN ('sent', 'dead')`);
}
