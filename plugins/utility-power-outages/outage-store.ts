import type { Knex } from 'knex';
import { insertInChunks, pgArray, type FeedStore } from '#plugin-api';
import type { PowerOutageChange, PowerOutageItem, StoredPowerOutage } from './outage-types.ts';

type StoredOutages = Map<string, StoredPowerOutage>;
type OutageRow = {
  id: string;
  time_restored: Date | null;
  outage_notified_at: Date | null;
  estimated_restoration: Date | null;
  estimate_changes: number | string;
};

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** The stored state of the polled outages, keyed by provider id (the detector's input). */
export async function loadStoredOutages(trx: Knex.Transaction, ids: readonly string[]): Promise<Map<string, StoredPowerOutage>> {
  if (ids.length === 0) return new Map();
  const rows: OutageRow[] = await trx('power_outages')
    .select('id', 'time_restored', 'outage_notified_at', 'estimated_restoration', 'estimate_changes')
    .whereRaw('id = ANY(?::text[])', [pgArray(ids)]);
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        timeRestored: iso(row.time_restored),
        outageNotifiedAt: iso(row.outage_notified_at),
        estimatedRestoration: iso(row.estimated_restoration),
        estimateChanges: Number(row.estimate_changes),
      },
    ]),
  );
}

/**
 * The outages of the latest answer, as stored, when one of them still waits
 * for its announcement (ongoing, never announced, still listed); none
 * otherwise. The detector alone decides whether its time has come.
 */
export async function outagesAwaitingDecision(trx: Knex.Transaction): Promise<PowerOutageItem[]> {
  const waiting = await trx('power_outages').where({ in_feed: true }).whereNull('time_restored').whereNull('outage_notified_at').first('id');
  if (!waiting) return [];
  const rows: Array<{ payload: PowerOutageItem }> = await trx('power_outages').where({ in_feed: true }).orderBy(['time_off', 'id']).select('payload');
  return rows.map((row) => row.payload);
}

/**
 * PERSIST: upserts every polled outage in one statement (its estimate, and
 * the count of announced estimate changes), marks which ones were handed to
 * the pipeline and which ones the answer no longer lists, and appends the
 * detected changes to the history. Runs in the monitor's transaction,
 * before the pipeline call.
 */
export async function persistOutages(
  trx: Knex.Transaction,
  items: readonly PowerOutageItem[],
  changes: readonly PowerOutageChange[],
  now: Date,
): Promise<void> {
  const ids = JSON.stringify(items.map((item) => item.id));
  await trx('power_outages').where({ in_feed: true }).whereRaw('id NOT IN (SELECT jsonb_array_elements_text(?::jsonb))', [ids]).update({ in_feed: false });
  if (items.length > 0) await upsertOutages(trx, items, changes, now);
  if (changes.length > 0) {
    await insertInChunks(
      trx,
      'power_outage_changes',
      changes.map((change) => ({ outage_id: change.item.id, kind: change.kind, detected_at: now, estimated_restoration: change.estimate ?? null })),
    );
  }
}

async function upsertOutages(trx: Knex.Transaction, items: readonly PowerOutageItem[], changes: readonly PowerOutageChange[], now: Date): Promise<void> {
  const byId = new Map(changes.map((change) => [change.item.id, change]));
  const records = items.map((item) => {
    const change = byId.get(item.id);
    return {
      id: item.id,
      feeder: item.feeder,
      areas: item.areas,
      time_off: item.timeOff,
      time_restored: item.timeRestored,
      cause: item.cause ?? null,
      customers_affected: item.customersAffected ?? null,
      estimated_restoration: item.estimatedRestoration ?? null,
      estimate_changes: change?.estimateChange ?? 0,
      outage_notified: change?.kind === 'NewOutage',
      restoration_notified: change?.kind === 'Restoration' || change?.kind === 'RestoredAnnouncement',
      payload: item,
    };
  });
  await trx.raw(
    `INSERT INTO power_outages AS p
       (id, feeder, areas, time_off, time_restored, cause, customers_affected, estimated_restoration, estimate_changes, in_feed,
        outage_notified_at, restoration_notified_at, first_seen_at, last_seen_at, payload)
     SELECT x.id, x.feeder, x.areas, x.time_off, x.time_restored, x.cause, x.customers_affected, x.estimated_restoration, x.estimate_changes, true,
            CASE WHEN x.outage_notified THEN ?::timestamptz END, CASE WHEN x.restoration_notified THEN ?::timestamptz END,
            ?::timestamptz, ?::timestamptz, x.payload
       FROM jsonb_to_recordset(?::jsonb) AS x(id text, feeder text, areas jsonb, time_off timestamptz, time_restored timestamptz,
            cause text, customers_affected int, estimated_restoration timestamptz, estimate_changes int,
            outage_notified boolean, restoration_notified boolean, payload jsonb)
     ON CONFLICT (id) DO UPDATE SET
       feeder = EXCLUDED.feeder, areas = EXCLUDED.areas, time_off = EXCLUDED.time_off, time_restored = EXCLUDED.time_restored,
       cause = EXCLUDED.cause, customers_affected = EXCLUDED.customers_affected, last_seen_at = EXCLUDED.last_seen_at, payload = EXCLUDED.payload,
       estimated_restoration = EXCLUDED.estimated_restoration, in_feed = true,
       estimate_changes = GREATEST(p.estimate_changes, EXCLUDED.estimate_changes),
       outage_notified_at = COALESCE(p.outage_notified_at, EXCLUDED.outage_notified_at),
       restoration_notified_at = COALESCE(p.restoration_notified_at, EXCLUDED.restoration_notified_at)`,
    [now, now, now, now, JSON.stringify(records)],
  );
}

/** The feed store as the monitor uses it. */
export const outageStore: FeedStore<PowerOutageItem, StoredOutages, PowerOutageChange> = {
  load: (trx, items) =>
    loadStoredOutages(
      trx,
      items.map((item) => item.id),
    ),
  persist: (trx, { items, changes, now }) => persistOutages(trx, items, changes, now),
  waiting: (trx) => outagesAwaitingDecision(trx),
};
