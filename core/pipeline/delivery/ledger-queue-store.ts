import type { Knex } from 'knex';
import type { SubscriptionScope } from '../../plugin-api/delivery-types.ts';
import type { NotificationEvent, RenderedNotification } from '../../plugin-api/feed-types.ts';
import type { LeasedQueueStore } from '../../plugin-api/queue-types.ts';
import type { SettledDelivery } from './delivery-outcome.ts';
import { pgArray as array } from '../../db/pg-array.ts';
import { eventOfRow } from '../event-store.ts';
import type { SubscriberPreferences } from '../../plugin-api/preferences.ts';

/** A leased ledger row with its subscription and its (stored, rendered) event. */
export interface LeasedDelivery {
  readonly ledgerId: number;
  readonly eventId: number;
  /** This attempt's number: the lease counts it. */
  readonly attempt: number;
  readonly subscription: {
    readonly id: number;
    readonly public_id: string;
    readonly display_name: string;
    readonly feed_id: string;
    readonly scope: SubscriptionScope;
    readonly provider: string;
    readonly destination: string;
    readonly is_active: boolean;
    /** What the subscriber decided (their language and zone are read at delivery). */
    readonly preferences: SubscriberPreferences;
  };
  readonly event: NotificationEvent;
  readonly rendered: RenderedNotification;
}

interface StoredEvent {
  event: NotificationEvent;
  rendered: RenderedNotification;
}

type Db = Knex | Knex.Transaction;
const EVENT_CACHE_SIZE = 1000;

/**
 * The delivery ledger as a leased queue (times are the database's). A row
 * is due when pending or retrying and its next attempt has come, or when
 * delivering and its lease lapsed (its instance died). Events are stored
 * once and never change, so a batch reads each distinct event once, and
 * recent ones come from memory.
 */
export class LedgerQueueStore implements LeasedQueueStore<LeasedDelivery, SettledDelivery> {
  readonly #db: Knex;
  readonly #leaseSeconds: number;
  readonly #events = new Map<number, StoredEvent>();

  constructor(db: Knex, leaseSeconds: number) {
    this.#db = db;
    this.#leaseSeconds = leaseSeconds;
  }

  lease(limit: number, token: string): Promise<LeasedDelivery[]> {
    return this.leaseRows(this.#db, limit, token);
  }

  /** Leases due rows, only among `onlyIds` when given (the deliveries of one call: /test, announcements). */
  async leaseRows(db: Db, limit: number, token: string, onlyIds?: readonly number[]): Promise<LeasedDelivery[]> {
    const only = onlyIds ? 'AND id = ANY(?::bigint[])' : '';
    const onlyBinding = onlyIds ? [array(onlyIds)] : [];
    // Two index-ordered reads (waiting rows due, leased rows whose lease lapsed), each taking only what it needs.
    const result = await db.raw(
      `WITH waiting AS (
         SELECT id FROM notification_delivery_ledger
          WHERE status IN ('pending', 'retrying') AND next_attempt_at <= now() ${only}
          ORDER BY next_attempt_at, id LIMIT ? FOR UPDATE SKIP LOCKED),
       lapsed AS (
         SELECT id FROM notification_delivery_ledger
          WHERE status = 'delivering' AND lease_until < now() ${only}
          ORDER BY lease_until LIMIT ? FOR UPDATE SKIP LOCKED),
       due AS (SELECT id FROM lapsed UNION ALL SELECT id FROM waiting LIMIT ?)
       UPDATE notification_delivery_ledger l
          SET status = 'delivering', attempts = l.attempts + 1, lease_token = ?, lease_until = now() + make_interval(secs => ?)
         FROM due, notification_subscriptions s
        WHERE l.id = due.id AND s.id = l.subscription_id
        RETURNING l.id, l.attempts, l.event_id, s.id AS subscription_id, s.public_id, s.display_name, s.feed_id, s.scope,
                  s.provider, s.destination, s.is_active, s.preferences`,
      [...onlyBinding, limit, ...onlyBinding, limit, limit, token, this.#leaseSeconds],
    );
    const rows = result.rows as Array<Record<string, unknown>>;
    const events = await this.eventsOf(db, rows.map((row) => Number(row.event_id)));
    return rows
      .map((row) => {
        const stored = events.get(Number(row.event_id))!;
        return {
          ledgerId: Number(row.id),
          eventId: Number(row.event_id),
          attempt: Number(row.attempts),
          subscription: {
            id: Number(row.subscription_id),
            public_id: String(row.public_id),
            display_name: String(row.display_name),
            feed_id: String(row.feed_id),
            scope: row.scope as SubscriptionScope,
            provider: String(row.provider),
            destination: String(row.destination),
            is_active: row.is_active === true,
            preferences: (row.preferences ?? {}) as SubscriberPreferences,
          },
          event: stored.event,
          rendered: stored.rendered,
        };
      })
      .sort((a, b) => a.ledgerId - b.ledgerId);
  }

  async renew(token: string): Promise<void> {
    await this.#db.raw(
      `UPDATE notification_delivery_ledger SET lease_until = now() + make_interval(secs => ?)
        WHERE lease_token = ? AND status = 'delivering'`,
      [this.#leaseSeconds, token],
    );
  }

  /**
   * Records outcomes set-based on the rows this lease still holds; `queued`
   * rows were settled by their target's transaction, and `recorded` ones
   * while their batch was under way. A row holds a lease token only while
   * leased (settling clears it), so the token alone says the row is still
   * ours; matching by id first keeps the plan a primary-key lookup per row
   * however many rows are leased.
   */
  async settle(token: string, outcomes: readonly SettledDelivery[], db: Db = this.#db): Promise<number> {
    const recorded = outcomes.filter((outcome) => outcome.status !== 'queued' && !outcome.recorded);
    if (recorded.length === 0) return 0;
    const result = await db.raw(
      `UPDATE notification_delivery_ledger l
          SET status = v.status,
              delivered_at = CASE WHEN v.status = 'delivered' THEN now() ELSE l.delivered_at END,
              next_attempt_at = CASE WHEN v.wait IS NULL THEN l.next_attempt_at ELSE now() + make_interval(secs => v.wait) END,
              last_error = v.err,
              lease_token = NULL,
              lease_until = NULL
         FROM unnest(?::bigint[], ?::text[], ?::float8[], ?::text[]) AS v(id, status, wait, err)
        WHERE l.id = v.id AND l.lease_token = ?`,
      [
        array(recorded.map((o) => o.id)),
        array(recorded.map((o) => o.status)),
        array(recorded.map((o) => o.retryInSeconds)),
        array(recorded.map((o) => o.error)),
        token,
      ],
    );
    return Number(result.rowCount ?? result.affectedRows ?? 0);
  }

  /** Hands leased rows to a transactional target: `queued` until the target settles them. Returns how many this lease still held. */
  async markQueued(trx: Knex.Transaction, token: string, ids: readonly number[]): Promise<number> {
    const result = await trx.raw(
      `UPDATE notification_delivery_ledger SET status = 'queued', lease_token = NULL, lease_until = NULL, last_error = NULL
        WHERE id = ANY(?::bigint[]) AND lease_token = ?`,
      [array(ids), token],
    );
    return Number(result.rowCount ?? result.affectedRows ?? 0);
  }

  /** The database's clock decides what is due: the distance is measured there. */
  async nextDueInMs(): Promise<number | null> {
    const result = await this.#db.raw(
      `SELECT 1000 * EXTRACT(EPOCH FROM LEAST(
                (SELECT min(next_attempt_at) FROM notification_delivery_ledger WHERE status IN ('pending', 'retrying')),
                (SELECT min(lease_until) FROM notification_delivery_ledger WHERE status = 'delivering')) - now()) AS ms`,
    );
    const ms = result.rows[0]?.ms;
    return ms === null || ms === undefined ? null : Number(ms);
  }

  /** The stored events and their renderings (events never change: recent ones come from memory). */
  async eventsOf(db: Db, ids: readonly number[]): Promise<Map<number, StoredEvent>> {
    const found = new Map<number, StoredEvent>();
    const missing = new Set<number>();
    for (const id of ids) {
      const cached = this.#events.get(id);
      if (cached) found.set(id, cached);
      else missing.add(id);
    }
    if (missing.size > 0) {
      const rows = await db('notification_events')
        .select('id', 'feed_id', 'event_type', 'source_key', 'item_key', 'fields', 'payload', 'rendered')
        .whereIn('id', [...missing]);
      for (const row of rows) {
        const stored: StoredEvent = {
          event: eventOfRow(row),
          rendered: row.rendered as RenderedNotification,
        };
        found.set(Number(row.id), stored);
        this.#remember(Number(row.id), stored);
      }
    }
    return found;
  }

  #remember(id: number, stored: StoredEvent): void {
    if (this.#events.size >= EVENT_CACHE_SIZE) this.#events.delete(this.#events.keys().next().value!);
    this.#events.set(id, stored);
  }
}
