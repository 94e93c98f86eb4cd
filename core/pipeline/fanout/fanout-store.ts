import type { LeaseOwner } from '../../queue/lease-owner.ts';
import type { Knex } from 'knex';
import type { LeasedQueueStore } from '../../plugin-api/queue-types.ts';
import type { FanoutEvent } from './claim-page.ts';
import { pgArray as array } from '../../plugin-api/pg-array.ts';
import type { AreaGeometry } from '../../places/index.ts';

/** What expanding one group of events came to (for the batch log line). */
export interface FanoutOutcome {
  readonly eventIds: readonly number[];
  readonly pages: number;
  readonly claimedIds: readonly number[];
  readonly matched: number;
  readonly done: boolean;
}

/** A stored event whose fan-out continues in one lane, from the subscription after `cursor`. */
export interface PendingFanout extends FanoutEvent {
  readonly provider: string;
  readonly cursor: number;
}

type Db = Knex | Knex.Transaction;
const PENDING_COLUMNS = 'f.provider, f.cursor, e.id, e.feed_id, e.event_type, e.source_key, e.item_key, e.fields, e.urgent, e.geometry';

const toPending = (rows: Array<Record<string, unknown>>): PendingFanout[] =>
  rows
    .map((row) => ({
      eventId: Number(row.id),
      itemKey: String(row.item_key),
      provider: String(row.provider),
      cursor: Number(row.cursor),
      event: {
        feedId: String(row.feed_id),
        eventType: String(row.event_type),
        sourceKey: String(row.source_key),
        itemKey: String(row.item_key),
        fields: row.fields as Record<string, string>,
        sourcePayload: null,
        ...(row.urgent === true ? { urgent: true } : {}),
        ...(row.geometry ? { geometry: row.geometry as AreaGeometry } : {}),
      },
    }))
    .sort((a, b) => a.eventId - b.eventId);

/**
 * One lane's fan-outs still to be done (`notification_fanouts`, a row per
 * event and lane), as a leased queue (times are the database's). A lease
 * covers a batch of events; each page moves its event's cursor in the
 * page's transaction, only while the lease holds, and the last page
 * removes the row: an event whose every lane is done has none left.
 */
export class FanoutStore implements LeasedQueueStore<PendingFanout, FanoutOutcome> {
  readonly #db: Knex;
  readonly #provider: string;
  readonly #leaseSeconds: number;

  constructor(db: Knex, provider: string, leaseSeconds: number) {
    this.#db = db;
    this.#provider = provider;
    this.#leaseSeconds = leaseSeconds;
  }

  async lease(limit: number, token: string): Promise<PendingFanout[]> {
    const result = await this.#db.raw(
      `WITH due AS (
         SELECT event_id FROM notification_fanouts
          WHERE provider = ? AND (status = 'pending' OR lease_until < now())
          ORDER BY event_id LIMIT ? FOR UPDATE SKIP LOCKED),
       leased AS (
         UPDATE notification_fanouts f
            SET status = 'expanding', lease_token = ?, lease_until = now() + make_interval(secs => ?)
           FROM due WHERE f.provider = ? AND f.event_id = due.event_id
          RETURNING f.*)
       SELECT ${PENDING_COLUMNS} FROM leased f JOIN notification_events e ON e.id = f.event_id`,
      [this.#provider, limit, token, this.#leaseSeconds, this.#provider],
    );
    return toPending(result.rows);
  }

  /** This lane's events a hand-over leased to itself (a caller that waits for its own fan-out). */
  async leasedTo(token: string): Promise<PendingFanout[]> {
    const result = await this.#db.raw(
      `SELECT ${PENDING_COLUMNS} FROM notification_fanouts f JOIN notification_events e ON e.id = f.event_id
        WHERE f.lease_token = ? AND f.provider = ? AND f.status = 'expanding'`,
      [token, this.#provider],
    );
    return toPending(result.rows);
  }

  /** Moves the cursor of these events (removes their rows when the page was the last), in the page's transaction; false when the lease was lost. */
  async advance(trx: Knex.Transaction, token: string, eventIds: readonly number[], cursor: number, done: boolean): Promise<boolean> {
    const result = done
      ? await trx.raw(`DELETE FROM notification_fanouts WHERE provider = ? AND event_id = ANY(?::bigint[]) AND lease_token = ? AND status = 'expanding'`, [
          this.#provider,
          array(eventIds),
          token,
        ])
      : await trx.raw(
          `UPDATE notification_fanouts SET cursor = ?
            WHERE provider = ? AND event_id = ANY(?::bigint[]) AND lease_token = ? AND status = 'expanding'`,
          [cursor, this.#provider, array(eventIds), token],
        );
    return Number(result.rowCount ?? 0) === eventIds.length;
  }

  async renew(token: string): Promise<void> {
    await this.#db.raw(
      `UPDATE notification_fanouts SET lease_until = now() + make_interval(secs => ?)
        WHERE lease_token = ? AND provider = ? AND status = 'expanding'`,
      [this.#leaseSeconds, token, this.#provider],
    );
  }

  /** Gives back what this lease did not finish (shutdown): pending again, from its cursor. */
  async settle(token: string): Promise<void> {
    await this.#db.raw(
      `UPDATE notification_fanouts SET status = 'pending', lease_token = NULL, lease_until = NULL
        WHERE lease_token = ? AND provider = ?`,
      [token, this.#provider],
    );
  }

  async nextDueInMs(): Promise<number | null> {
    const result = await this.#db.raw(
      `SELECT 1000 * EXTRACT(EPOCH FROM min(CASE WHEN status = 'expanding' THEN lease_until ELSE now() END) - now()) AS ms
         FROM notification_fanouts WHERE provider = ?`,
      [this.#provider],
    );
    const ms = result.rows[0]?.ms;
    return ms === null || ms === undefined ? null : Number(ms);
  }
}

/**
 * Events of a hand-over whose first page was full go on in every lane from
 * `cursor`: pending, for each lane's expander; or, for a caller that waits,
 * leased to it already (if it dies, the leases lapse and the expanders go
 * on).
 */
export async function continueFanouts(
  db: Db,
  eventIds: readonly number[],
  providers: readonly string[],
  cursor: number,
  lease?: { readonly token: string; readonly seconds: number },
): Promise<void> {
  if (eventIds.length === 0 || providers.length === 0) return;
  await db.raw(
    `INSERT INTO notification_fanouts (event_id, provider, cursor, status, lease_token, lease_until)
     SELECT e, p, ?, ?, ?::text, CASE WHEN ?::text IS NULL THEN NULL ELSE now() + make_interval(secs => ?::float8) END
       FROM unnest(?::bigint[]) AS e, unnest(?::text[]) AS p
     ON CONFLICT (event_id, provider) DO NOTHING`,
    [cursor, lease ? 'expanding' : 'pending', lease?.token ?? null, lease?.token ?? null, lease?.seconds ?? 0, array(eventIds), array(providers)],
  );
}

/** Lapses the fan-out leases an earlier run of this instance still held (see lapseEarlierRuns in the ledger): due at once. */
export async function lapseEarlierFanouts(db: Knex, owner: LeaseOwner): Promise<number> {
  const result = await db.raw(
    `UPDATE notification_fanouts SET lease_until = now() - interval '1 millisecond'
      WHERE status = 'expanding' AND lease_until >= now() AND starts_with(lease_token, ?) AND NOT starts_with(lease_token, ?)`,
    [`${owner.name}/`, `${owner.name}/${owner.run}/`],
  );
  return result.rowCount ?? 0;
}
