import type { Knex } from 'knex';
import { pgArray as array } from '#plugin-api';
import type { NotificationParams, VerificationParams } from './email-composer.ts';
import { OUTBOX_STATES, type OutboxState } from './outbox-policy.ts';

/**
 * The plugin's tables. Every function takes the knex or transaction to use:
 * inside a caller's transaction (enqueue, create) only that transaction may
 * be used (with embedded PGlite a query beside it waits for the whole
 * acquire timeout). Times come from the service clock, not the database's.
 */
type Db = Knex | Knex.Transaction;

export interface NewOutboxItem {
  readonly kind: 'notification' | 'verification';
  readonly subscriptionId: number;
  readonly ledgerId: number | null;
  readonly recipient: string;
  readonly subject: string;
  readonly template: string;
  readonly params: NotificationParams | VerificationParams;
  /** A notification's source item: its emails to this subscription make one thread (the first one's subject, answering it). */
  readonly thread?: { readonly feedId: string; readonly itemKey: string };
}

export interface ClaimedItem extends Omit<NewOutboxItem, 'thread'> {
  readonly id: number;
  /** This attempt's number: the claim counts it. */
  readonly attempt: number;
  /** The first email of its thread (this one's own id when it is that first), or null outside a thread. */
  readonly threadFirstId: number | null;
}

export interface ItemResult {
  readonly id: number;
  /** `deferred`: pending again, its attempt not counted (the relay said to slow down). */
  readonly state: Exclude<OutboxState, 'pending' | 'processing'> | 'deferred';
  readonly dueAt: Date | null;
  readonly error: string | null;
}

const threadKey = (subscriptionId: number, feedId: string, itemKey: string) => `${subscriptionId}\u0000${feedId}\u0000${itemKey}`;

/**
 * The threads of these items (one per subscription and source item),
 * made where missing with the subject of the first item that asks; by key.
 * Two statements: the second reads what the first wrote, or what a
 * concurrent enqueue committed first (its insert waited for it).
 */
async function threadsOf(trx: Knex.Transaction, items: readonly NewOutboxItem[]): Promise<Map<string, { id: number; subject: string }>> {
  const threaded = items.filter((item) => item.thread);
  const found = new Map<string, { id: number; subject: string }>();
  if (threaded.length === 0) return found;
  const columns = [
    array(threaded.map((item) => item.subscriptionId)),
    array(threaded.map((item) => item.thread!.feedId)),
    array(threaded.map((item) => item.thread!.itemKey)),
  ];
  await trx.raw(
    `INSERT INTO email_threads (subscription_id, feed_id, item_key, subject)
     SELECT DISTINCT ON (s, f, k) s, f, k, subject
       FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[]) WITH ORDINALITY AS v(s, f, k, subject, n)
      ORDER BY s, f, k, n
     ON CONFLICT (subscription_id, feed_id, item_key) DO NOTHING`,
    [...columns, array(threaded.map((item) => item.subject))],
  );
  const result = await trx.raw(
    `SELECT DISTINCT t.id, t.subscription_id, t.feed_id, t.item_key, t.subject
       FROM email_threads t JOIN unnest(?::bigint[], ?::text[], ?::text[]) AS v(s, f, k)
         ON t.subscription_id = v.s AND t.feed_id = v.f AND t.item_key = v.k`,
    columns,
  );
  for (const row of result.rows as Array<{ id: string | number; subscription_id: string | number; feed_id: string; item_key: string; subject: string }>)
    found.set(threadKey(Number(row.subscription_id), row.feed_id, row.item_key), { id: Number(row.id), subject: row.subject });
  return found;
}

/**
 * Queues items in one set-based statement (unnest), pending and due now. A
 * notification joins its thread (made here when it is the first of its
 * item to that subscription) and carries the thread's subject.
 */
export async function insertOutboxItems(trx: Knex.Transaction, items: readonly NewOutboxItem[], now: Date): Promise<void> {
  if (items.length === 0) return;
  const threads = await threadsOf(trx, items);
  const threadOf = (item: NewOutboxItem) => (item.thread ? threads.get(threadKey(item.subscriptionId, item.thread.feedId, item.thread.itemKey)) : undefined);
  const result = await trx.raw(
    `INSERT INTO email_outbox (kind, subscription_id, ledger_id, recipient, subject, template, params, thread_id, state, due_at, created_at, updated_at)
     SELECT v.kind, v.subscription_id, v.ledger_id, v.recipient, v.subject, v.template, v.params::jsonb, v.thread_id, 'pending', ?, ?, ?
       FROM unnest(?::text[], ?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[]) WITH ORDINALITY
         AS v(kind, subscription_id, ledger_id, recipient, subject, template, params, thread_id, n)
      ORDER BY v.n
     RETURNING id, thread_id`,
    [
      now,
      now,
      now,
      array(items.map((item) => item.kind)),
      array(items.map((item) => item.subscriptionId)),
      array(items.map((item) => item.ledgerId)),
      array(items.map((item) => item.recipient)),
      array(items.map((item) => threadOf(item)?.subject ?? item.subject)),
      array(items.map((item) => item.template)),
      array(items.map((item) => JSON.stringify(item.params))),
      array(items.map((item) => threadOf(item)?.id ?? null)),
    ],
  );
  // A thread's first email is its lowest id (an email of an earlier enqueue, when there was one).
  const inThreads = (result.rows as Array<{ id: string | number; thread_id: string | number | null }>).filter((row) => row.thread_id !== null);
  if (inThreads.length === 0) return;
  await trx.raw(
    `UPDATE email_threads t SET first_outbox_id = m.first
       FROM (SELECT thread_id, min(id) AS first FROM unnest(?::bigint[], ?::bigint[]) AS v(id, thread_id) GROUP BY thread_id) m
      WHERE t.id = m.thread_id AND t.first_outbox_id IS NULL`,
    [array(inThreads.map((row) => Number(row.id))), array(inThreads.map((row) => Number(row.thread_id)))],
  );
}

/**
 * Takes up to `limit` due items (pending, failed past their backoff, or
 * processing with a lapsed lease) for this claim: SKIP LOCKED, so
 * instances sweeping together each get other rows; a claimed row carries
 * the claim token and a lease, and counts an attempt. Leases are judged by
 * the database's clock, as every instance sees the same one: an instance
 * whose own clock runs ahead must not take rows another still holds.
 */
export async function claimDueItems(db: Knex, options: { limit: number; claimToken: string; leaseSeconds: number; now: Date }): Promise<ClaimedItem[]> {
  const result = await db.raw(
    `UPDATE email_outbox o
        SET state = 'processing', attempts = o.attempts + 1, claim_token = ?, due_at = now() + make_interval(secs => ?), updated_at = ?
       FROM (SELECT id FROM email_outbox
              WHERE (state IN ('pending', 'failed') AND due_at <= ?) OR (state = 'processing' AND due_at <= now())
              ORDER BY due_at, id
              LIMIT ?
              FOR UPDATE SKIP LOCKED) due
      WHERE o.id = due.id
  RETURNING o.id, o.kind, o.subscription_id, o.ledger_id, o.recipient, o.subject, o.template, o.params, o.attempts,
            (SELECT t.first_outbox_id FROM email_threads t WHERE t.id = o.thread_id) AS thread_first_id`,
    [options.claimToken, options.leaseSeconds, options.now, options.now, options.limit],
  );
  return (result.rows as Array<Record<string, unknown>>)
    .map((row) => ({
      id: Number(row.id),
      kind: row.kind as ClaimedItem['kind'],
      subscriptionId: Number(row.subscription_id),
      ledgerId: row.ledger_id === null ? null : Number(row.ledger_id),
      recipient: String(row.recipient),
      subject: String(row.subject),
      template: String(row.template),
      params: (typeof row.params === 'string' ? JSON.parse(row.params) : row.params) as ClaimedItem['params'],
      attempt: Number(row.attempts),
      threadFirstId: row.thread_first_id === null || row.thread_first_id === undefined ? null : Number(row.thread_first_id),
    }))
    .sort((a, b) => a.id - b.id);
}

/** Keeps this claim's items ours while they are being sent (by the database's clock, as the claim). */
export async function renewLease(db: Knex, claimToken: string, leaseSeconds: number): Promise<void> {
  await db('email_outbox')
    .where({ claim_token: claimToken, state: 'processing' })
    .update({ due_at: db.raw('now() + make_interval(secs => ?)', [leaseSeconds]) });
}

/**
 * Records results set-based, only on rows this claim still holds (a row
 * whose lease lapsed and that another instance took is not overwritten).
 * A sent item drops its params: they may hold a verification token.
 * Returns the ids recorded.
 */
export async function recordResults(trx: Knex.Transaction, claimToken: string, results: readonly ItemResult[], now: Date): Promise<Set<number>> {
  if (results.length === 0) return new Set();
  const result = await trx.raw(
    `UPDATE email_outbox o
        SET state = CASE WHEN v.state = 'deferred' THEN 'pending' ELSE v.state END,
            attempts = CASE WHEN v.state = 'deferred' THEN GREATEST(o.attempts - 1, 0) ELSE o.attempts END,
            due_at = COALESCE(v.due_at, o.due_at),
            last_error = CASE WHEN v.state = 'sent' THEN o.last_error ELSE v.error END,
            params = CASE WHEN v.state = 'sent' THEN '{}'::jsonb ELSE o.params END,
            sent_at = CASE WHEN v.state = 'sent' THEN ?::timestamptz ELSE o.sent_at END,
            claim_token = NULL,
            updated_at = ?
       FROM unnest(?::bigint[], ?::text[], ?::timestamptz[], ?::text[]) AS v(id, state, due_at, error)
      WHERE o.id = v.id AND o.claim_token = ? AND o.state = 'processing'
  RETURNING o.id`,
    [
      now,
      now,
      array(results.map((r) => r.id)),
      array(results.map((r) => r.state)),
      array(results.map((r) => r.dueAt?.toISOString() ?? null)),
      array(results.map((r) => r.error)),
      claimToken,
    ],
  );
  return new Set((result.rows as Array<{ id: number | string }>).map((row) => Number(row.id)));
}

/** Items of a subscription that stopped (unsubscribed) before they were sent: dropped; the ledger keeps the story. */
export async function dropItems(trx: Knex.Transaction, claimToken: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows: Array<{ id: number | string }> = await trx('email_outbox')
    .whereIn('id', ids)
    .andWhere({ claim_token: claimToken, state: 'processing' })
    .delete()
    .returning('id');
  return new Set(rows.map((row) => Number(row.id)));
}

/** Milliseconds from `now` (the service clock, which writes due_at) until the next item is due, or null when nothing waits. */
export async function nextDueInMs(db: Knex, now: Date): Promise<number | null> {
  // A retry falls due by the service clock, a lease lapses by the database's.
  const result = await db.raw(
    `SELECT 1000 * EXTRACT(EPOCH FROM min(CASE WHEN state = 'processing' THEN due_at - now() ELSE due_at - ?::timestamptz END)) AS ms
       FROM email_outbox WHERE state IN ('pending', 'failed', 'processing')`,
    [now],
  );
  const ms = (result.rows as Array<{ ms: string | number | null }>)[0]?.ms;
  return ms === null || ms === undefined ? null : Number(ms);
}

/** Counts per state from `{ state, n }` rows; a state without a row is 0. */
function countsOf(rows: ReadonlyArray<{ state: OutboxState; n: number | string }>): Record<OutboxState, number> {
  const counts = Object.fromEntries(OUTBOX_STATES.map((state) => [state, 0])) as Record<OutboxState, number>;
  for (const row of rows) counts[row.state] = Number(row.n);
  return counts;
}

export async function stateCounts(db: Knex): Promise<Record<OutboxState, number>> {
  return countsOf(await db('email_outbox').select('state').count({ n: '*' }).groupBy('state'));
}

/** Items per state, each counted up to `cap` rows (one statement; sent items pile up, so the read stays bounded). */
export async function stateCountsUpTo(db: Knex, cap: number): Promise<Record<OutboxState, number>> {
  const parts = OUTBOX_STATES.map(() => '(SELECT ?::text AS state, count(*) AS n FROM (SELECT 1 FROM email_outbox WHERE state = ? LIMIT ?) capped)');
  const result = await db.raw(
    parts.join(' UNION ALL '),
    OUTBOX_STATES.flatMap((state) => [state, state, cap]),
  );
  return countsOf(result.rows);
}

export interface DeadItem {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  updatedAt: Date;
}

export async function deadItems(db: Knex, limit: number): Promise<DeadItem[]> {
  const rows = await db('email_outbox')
    .where({ state: 'dead' })
    .orderBy([
      { column: 'updated_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .select('id', 'kind', 'recipient', 'subject', 'attempts', 'last_error', 'updated_at');
  return rows.map((row) => ({
    id: Number(row.id),
    kind: row.kind,
    recipient: row.recipient,
    subject: row.subject,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    updatedAt: new Date(row.updated_at),
  }));
}

/** Dead items (these ids, or all) back to pending with a fresh count of attempts. */
export async function requeueDead(
  db: Knex | Knex.Transaction,
  ids: readonly number[] | undefined,
  now: Date,
): Promise<Array<{ id: number; ledgerId: number | null }>> {
  const query = db('email_outbox').where({ state: 'dead' });
  if (ids) query.whereIn('id', ids);
  const rows: Array<{ id: number | string; ledger_id: number | string | null }> = await query
    .update({ state: 'pending', attempts: 0, due_at: now, claim_token: null, updated_at: now })
    .returning(['id', 'ledger_id']);
  return rows.map((row) => ({ id: Number(row.id), ledgerId: row.ledger_id === null ? null : Number(row.ledger_id) }));
}

export async function insertVerificationTokens(
  trx: Knex.Transaction,
  tokens: ReadonlyArray<{ subscriptionId: number; tokenHash: string }>,
  expiresAt: Date,
  now: Date,
): Promise<void> {
  if (tokens.length === 0) return;
  await trx('email_verification_tokens').insert(
    tokens.map((token) => ({ subscription_id: token.subscriptionId, token_hash: token.tokenHash, expires_at: expiresAt, created_at: now })),
  );
}

/** Marks the token used when it is this subscription's, unused and unexpired; false otherwise. */
export async function useVerificationToken(trx: Knex.Transaction, subscriptionId: number, tokenHash: string, now: Date): Promise<boolean> {
  const used = await trx('email_verification_tokens')
    .where({ subscription_id: subscriptionId, token_hash: tokenHash })
    .whereNull('used_at')
    .andWhere('expires_at', '>', now)
    .update({ used_at: now });
  return Number(used) === 1;
}

/** Whether this subscription's token was used already (a verify link opened a second time). */
export async function verificationTokenUsed(db: Db, subscriptionId: number, tokenHash: string): Promise<boolean> {
  const row = await db('email_verification_tokens')
    .where({ subscription_id: subscriptionId, token_hash: tokenHash })
    .whereNotNull('used_at')
    .first('subscription_id');
  return row !== undefined;
}

export async function loadLinkKey(db: Knex): Promise<string> {
  const row = await db('email_link_keys').where({ name: 'unsubscribe' }).first('secret');
  if (!row) throw new Error('email_link_keys has no unsubscribe key: the delivery-email migration did not run');
  return row.secret as string;
}
