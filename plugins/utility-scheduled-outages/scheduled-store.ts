import type { Knex } from 'knex';
import { insertInChunks, pgArray, type FeedStore } from '#plugin-api';
import { raiseCalendarSequences } from './calendar-sequence.ts';
import type { ScheduledOutageChange, ScheduledOutageItem } from './scheduled-types.ts';

type KeyedChange = ScheduledOutageChange & { sourceKey: string };

interface Row {
  id: string;
  outage_date: string | Date;
  start_time: string;
  end_time: string;
  feeder: string;
  areas: string[];
  reason: string | null;
  status: 'scheduled' | 'cancelled';
}

export type { Row as ScheduledOutageRow };

const dateText = (value: string | Date) =>
  typeof value === 'string'
    ? value.slice(0, 10)
    : `${value.getFullYear()}-${String(value.getMonth() + 1).padStart(2, '0')}-${String(value.getDate()).padStart(2, '0')}`;

export const toItem = (row: Row): ScheduledOutageItem => ({
  id: row.id,
  date: dateText(row.outage_date),
  start: row.start_time,
  end: row.end_time,
  feeder: row.feeder,
  areas: row.areas,
  reason: row.reason,
  status: row.status,
});

const COLUMNS = ['id', 'outage_date', 'start_time', 'end_time', 'feeder', 'areas', 'reason', 'status'];
// A date column read as text, so no driver turns it into a midnight in some zone.
export const SELECT = [...COLUMNS.filter((c) => c !== 'outage_date'), 'outage_date::text AS outage_date'];

export async function loadStoredItems(trx: Knex.Transaction, ids: readonly string[]): Promise<Map<string, ScheduledOutageItem>> {
  if (ids.length === 0) return new Map();
  const rows: Row[] = await trx('scheduled_outages')
    .select(trx.raw(SELECT.join(', ')))
    .whereRaw('id = ANY(?::text[])', [pgArray(ids)]);
  return new Map(rows.map((row) => [row.id, toItem(row)]));
}

/** When the feed's list was last stored (an empty list included): what the latest successful poll showed has `last_seen_at` >= it. */
export const latestPoll = (db: Knex | Knex.Transaction) => db('scheduled_outages_last_poll').select('seen_at');

/**
 * What digests list: scheduled (not cancelled) outages dated from `from` to
 * `to` inclusive that the latest successful poll still showed (an item that
 * vanished from the feed is not announced, and no longer listed either, even
 * when the feed's list became empty).
 */
export async function loadUpcoming(db: Knex | Knex.Transaction, from: string, to: string): Promise<ScheduledOutageItem[]> {
  const rows: Row[] = await db('scheduled_outages')
    .select(db.raw(SELECT.join(', ')))
    .where('status', 'scheduled')
    .where('last_seen_at', '>=', latestPoll(db))
    .whereBetween('outage_date', [from, to])
    .orderBy(['outage_date', 'start_time', 'id']);
  return rows.map(toItem);
}

/**
 * PERSIST: records when the list was stored, upserts every polled item in
 * one statement and appends the detected changes (with their SourceKeys)
 * to the history.
 */
export async function persistItems(trx: Knex.Transaction, items: readonly ScheduledOutageItem[], changes: readonly KeyedChange[], now: Date): Promise<void> {
  await trx.raw('INSERT INTO scheduled_outages_last_poll (id, seen_at) VALUES (true, ?) ON CONFLICT (id) DO UPDATE SET seen_at = EXCLUDED.seen_at', [now]);
  if (items.length === 0) return;
  await raiseCalendarSequences(trx, items, now);
  await trx.raw(
    `INSERT INTO scheduled_outages AS s (id, outage_date, start_time, end_time, feeder, areas, reason, status, first_seen_at, last_seen_at, cancelled_at, payload)
     SELECT x.id, x.date::date, x.start, x."end", x.feeder, x.areas, x.reason, x.status, ?::timestamptz, ?::timestamptz,
            CASE WHEN x.status = 'cancelled' THEN ?::timestamptz END, x.payload
       FROM jsonb_to_recordset(?::jsonb) AS x(id text, date text, start text, "end" text, feeder text, areas jsonb, reason text, status text, payload jsonb)
     ON CONFLICT (id) DO UPDATE SET
       outage_date = EXCLUDED.outage_date, start_time = EXCLUDED.start_time, end_time = EXCLUDED.end_time, feeder = EXCLUDED.feeder,
       areas = EXCLUDED.areas, reason = EXCLUDED.reason, status = EXCLUDED.status, last_seen_at = EXCLUDED.last_seen_at, payload = EXCLUDED.payload,
       cancelled_at = CASE WHEN EXCLUDED.status = 'cancelled' THEN COALESCE(s.cancelled_at, EXCLUDED.cancelled_at) END`,
    [now, now, now, JSON.stringify(items.map((item) => ({ ...item, reason: item.reason ?? null, payload: item })))],
  );
  if (changes.length > 0) {
    await insertInChunks(
      trx,
      'scheduled_outage_changes',
      changes.map((change) => ({
        outage_id: change.item.id,
        kind: change.kind,
        source_key: change.sourceKey,
        changes: JSON.stringify(change.changes),
        detected_at: now,
      })),
    );
  }
}

/** The feed store as the monitor uses it. */
export const scheduledStore: FeedStore<ScheduledOutageItem, Map<string, ScheduledOutageItem>, KeyedChange> = {
  load: (trx, items) =>
    loadStoredItems(
      trx,
      items.map((item) => item.id),
    ),
  persist: (trx, { items, changes, now }) => persistItems(trx, items, changes, now),
};
