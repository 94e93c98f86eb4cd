import type { Knex } from 'knex';
import type { PowerOutageChange, PowerOutageItem, StoredPowerOutage } from './outage-types.ts';

/** The stored state of the polled outages, keyed by provider id (the detector's input). */
export async function loadStoredOutages(trx: Knex.Transaction, ids: readonly string[]): Promise<Map<string, StoredPowerOutage>> {
  if (ids.length === 0) return new Map();
  const rows = await trx('power_outages').select('id', 'time_restored', 'outage_notified_at').whereIn('id', [...ids]);
  return new Map(
    rows.map((row: { id: string; time_restored: Date | null; outage_notified_at: Date | null }) => [
      row.id,
      { id: row.id, timeRestored: row.time_restored ? new Date(row.time_restored).toISOString() : null, outageNotifiedAt: row.outage_notified_at ? new Date(row.outage_notified_at).toISOString() : null },
    ]),
  );
}

/**
 * PERSIST: upserts every polled outage in one statement, marks which ones
 * were handed to the pipeline, and appends the detected changes to the
 * history. Runs in the monitor's transaction, before the pipeline call.
 */
export async function persistOutages(trx: Knex.Transaction, items: readonly PowerOutageItem[], changes: readonly PowerOutageChange[], now: Date): Promise<void> {
  if (items.length === 0) return;
  const announced = new Map(changes.map((change) => [change.item.id, change.kind]));
  const records = items.map((item) => ({
    id: item.id,
    feeder: item.feeder,
    areas: item.areas,
    time_off: item.timeOff,
    time_restored: item.timeRestored,
    cause: item.cause ?? null,
    customers_affected: item.customersAffected ?? null,
    outage_notified: announced.get(item.id) === 'NewOutage',
    restoration_notified: announced.get(item.id) === 'Restoration' || announced.get(item.id) === 'RestoredAnnouncement',
    payload: item,
  }));
  await trx.raw(
    `INSERT INTO power_outages AS p
       (id, feeder, areas, time_off, time_restored, cause, customers_affected, outage_notified_at, restoration_notified_at, first_seen_at, last_seen_at, payload)
     SELECT x.id, x.feeder, x.areas, x.time_off, x.time_restored, x.cause, x.customers_affected,
            CASE WHEN x.outage_notified THEN ?::timestamptz END, CASE WHEN x.restoration_notified THEN ?::timestamptz END,
            ?::timestamptz, ?::timestamptz, x.payload
       FROM jsonb_to_recordset(?::jsonb) AS x(id text, feeder text, areas jsonb, time_off timestamptz, time_restored timestamptz,
            cause text, customers_affected int, outage_notified boolean, restoration_notified boolean, payload jsonb)
     ON CONFLICT (id) DO UPDATE SET
       feeder = EXCLUDED.feeder, areas = EXCLUDED.areas, time_off = EXCLUDED.time_off, time_restored = EXCLUDED.time_restored,
       cause = EXCLUDED.cause, customers_affected = EXCLUDED.customers_affected, last_seen_at = EXCLUDED.last_seen_at, payload = EXCLUDED.payload,
       outage_notified_at = COALESCE(p.outage_notified_at, EXCLUDED.outage_notified_at),
       restoration_notified_at = COALESCE(p.restoration_notified_at, EXCLUDED.restoration_notified_at)`,
    [now, now, now, now, JSON.stringify(records)],
  );
  if (changes.length > 0) {
    await trx('power_outage_changes').insert(changes.map((change) => ({ outage_id: change.item.id, kind: change.kind, detected_at: now })));
  }
}
