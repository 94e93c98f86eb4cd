import type { Knex } from 'knex';
import type { LeasedQueueStore } from '../../plugin-api/queue-types.ts';
import type { FanoutEvent } from './claim-page.ts';
import { pgArray as array } from '../../db/pg-array.ts';

/** What expanding one group of events came to (for the batch log line). */
export interface FanoutOutcome {
  readonly eventIds: readonly number[];
  readonly pages: number;
  readonly claimedIds: readonly number[];
  readonly matched: number;
  readonly done: boolean;
}

/** A stored event whose fan-out continues, from the subscription after `cursor`. */
export interface PendingFanout extends FanoutEvent {
  readonly cursor: number;
}

type Db = Knex | Knex.Transaction;
const PENDING_COLUMNS = 'e.id, e.feed_id, e.event_type, e.source_key, e.item_key, e.fields, e.fanout_cursor';

const toPending = (rows: Array<Record<string, unknown>>): PendingFanout[] =>
  rows
    .map((row) => ({
      eventId: Number(row.id),
      itemKey: String(row.item_key),
      cursor: Number(row.fanout_cursor),
      event: {
        feedId: String(row.feed_id),
        eventType: String(row.event_type),
        sourceKey: String(row.source_key),
        itemKey: String(row.item_key),
        fields: row.fields as Record<string, string>,
        sourcePayload: null,
      },
    }))
    .sort((a, b) => a.eventId - b.eventId);

/**
 * Events still to be fanned out, as a leased queue (times are the
 * database's). A lease covers a batch of events; the cursor moves in the
 * same transaction as each page's claims, only while the lease holds.
 */
export class FanoutStore implements LeasedQueueStore<PendingFanout, FanoutOutcome> {
  readonly #db: Knex;
  readonly #leaseSeconds: number;

  constructor(db: Knex, leaseSeconds: number) {
    this.#db = db;
    this.#leaseSeconds = leaseSeconds;
  }

  async lease(limit: number, token: string): Promise<PendingFanout[]> {
    const result = await this.#db.raw(
      `UPDATE notification_events e
          SET fanout_status = 'expanding', fanout_lease_token = ?, fanout_lease_until = now() + make_interval(secs => ?)
         FROM (SELECT id FROM notification_events
                WHERE fanout_status = 'pending' OR (fanout_status = 'expanding' AND fanout_lease_until < now())
                ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED) due
        WHERE e.id = due.id
        RETURNING ${PENDING_COLUMNS}`,
      [token, this.#leaseSeconds, limit],
    );
    return toPending(result.rows);
  }

  /** The events a hand-over leased to itself (a caller that waits for its own fan-out). */
  async leasedTo(token: string): Promise<PendingFanout[]> {
    const result = await this.#db.raw(`SELECT ${PENDING_COLUMNS} FROM notification_events e WHERE e.fanout_lease_token = ? AND e.fanout_status = 'expanding'`, [token]);
    return toPending(result.rows);
  }

  /** Moves the cursor of these events (done when the page was the last), in the page's transaction; false when the lease was lost. */
  async advance(trx: Knex.Transaction, token: string, eventIds: readonly number[], cursor: number, done: boolean): Promise<boolean> {
    const result = await trx.raw(
      `UPDATE notification_events SET fanout_cursor = ?, fanout_status = ?
        WHERE id = ANY(?::bigint[]) AND fanout_lease_token = ? AND fanout_status = 'expanding'`,
      [cursor, done ? 'done' : 'expanding', array(eventIds), token],
    );
    return Number(result.rowCount ?? 0) === eventIds.length;
  }

  async renew(token: string): Promise<void> {
    await this.#db.raw(
      `UPDATE notification_events SET fanout_lease_until = now() + make_interval(secs => ?)
        WHERE fanout_lease_token = ? AND fanout_status = 'expanding'`,
      [this.#leaseSeconds, token],
    );
  }

  /** Gives back what this lease did not finish (shutdown): pending again, from its cursor. */
  async settle(token: string): Promise<void> {
    await this.#db.raw(
      `UPDATE notification_events
          SET fanout_status = CASE WHEN fanout_status = 'expanding' THEN 'pending' ELSE fanout_status END,
              fanout_lease_token = NULL, fanout_lease_until = NULL
        WHERE fanout_lease_token = ?`,
      [token],
    );
  }

  async nextDueInMs(): Promise<number | null> {
    const result = await this.#db.raw(
      `SELECT 1000 * EXTRACT(EPOCH FROM min(CASE WHEN fanout_status = 'expanding' THEN fanout_lease_until ELSE now() END) - now()) AS ms
         FROM notification_events WHERE fanout_status <> 'done'`,
    );
    const ms = result.rows[0]?.ms;
    return ms === null || ms === undefined ? null : Number(ms);
  }

  /**
   * Marks events of a hand-over whose first page was full: pending, for the
   * expander to continue after `cursor`; or, for a caller that waits, leased
   * to it already (if it dies, the lease lapses and the expander goes on).
   */
  async markContinued(db: Db, eventIds: readonly number[], cursor: number, leaseToken?: string): Promise<void> {
    if (leaseToken === undefined) {
      await db.raw(`UPDATE notification_events SET fanout_status = 'pending', fanout_cursor = ? WHERE id = ANY(?::bigint[])`, [cursor, array(eventIds)]);
      return;
    }
    await db.raw(
      `UPDATE notification_events SET fanout_status = 'expanding', fanout_cursor = ?, fanout_lease_token = ?, fanout_lease_until = now() + make_interval(secs => ?)
        WHERE id = ANY(?::bigint[])`,
      [cursor, leaseToken, this.#leaseSeconds, array(eventIds)],
    );
  }
}
