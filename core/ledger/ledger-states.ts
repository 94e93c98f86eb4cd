/**
 * The states of a delivery ledger row, declared once (the database holds
 * them to this list with a CHECK). A row is claimed `pending` (or already
 * `delivering`, when its lane takes it over at once), leased as
 * `delivering`, and ends `delivered`, `failed` (final: only an operator
 * requeues it) or `superseded` (a newer event of the same item was claimed
 * for the same subscription while it still waited). `retrying` waits for
 * its next attempt; `queued` is held by a transactional target (the email
 * outbox) until it settles it. `held` waits out its subscriber's quiet
 * hours, then becomes `merged` into one catch-up row, delivered like any
 * other. `skipped` was claimed and never sent: the subscriber's budget of
 * messages for the item was spent, or its feed said the event is no news
 * to them (`skipped_because` names which, `last_error` says it in words).
 */
export const LEDGER_STATES = ['pending', 'delivering', 'retrying', 'queued', 'delivered', 'failed', 'superseded', 'held', 'merged', 'skipped'] as const;
export type LedgerState = (typeof LEDGER_STATES)[number];

/** Waiting in a lane for an attempt (due once `next_attempt_at` has come). */
export const WAITING_STATES = ['pending', 'retrying'] as const satisfies readonly LedgerState[];
/** Claimed and not yet settled: waiting, on the wire, in a transactional target, or held for quiet hours. */
export const UNSETTLED_STATES = ['pending', 'retrying', 'delivering', 'queued', 'held'] as const satisfies readonly LedgerState[];
/** Final: retention may remove these once old enough. */
export const SETTLED_STATES = ['delivered', 'failed', 'superseded', 'merged', 'skipped'] as const satisfies readonly LedgerState[];
/** Reached the subscriber (a merged row went in a catch-up that did). */
export const REACHED_STATES = ['delivered', 'merged'] as const satisfies readonly LedgerState[];

/** `'a', 'b'`: a list of states as SQL literals (the names are this module's own constants, never input). */
export const sqlList = (states: readonly LedgerState[]) => states.map((state) => `'${state}'`).join(', ');
/** Told, or on its way to the peer: what a subscriber's budget counts, and what they were last told of an item. */
export const TOLD_STATES = ['delivered', 'delivering', 'queued', 'merged'] as const satisfies readonly LedgerState[];
