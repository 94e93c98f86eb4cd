import type { Knex } from 'knex';
import type { ScheduledOutageItem } from './scheduled-types.ts';

/**
 * Raises the calendar SEQUENCE of every polled item whose shown fields
 * (date, times, feeder, areas, reason, status) differ from the stored ones,
 * and records when. Runs in the monitor's transaction, before the upsert
 * overwrites the stored state.
 */
export async function raiseCalendarSequences(trx: Knex.Transaction, items: readonly ScheduledOutageItem[], now: Date): Promise<void> {
  await trx.raw(
    `UPDATE scheduled_outages AS s SET calendar_sequence = s.calendar_sequence + 1, changed_at = ?::timestamptz
       FROM jsonb_to_recordset(?::jsonb) AS x(id text, date text, start text, "end" text, feeder text, areas jsonb, reason text, status text)
      WHERE s.id = x.id
        AND (s.outage_date, s.start_time, s.end_time, s.feeder, s.areas, s.reason, s.status)
            IS DISTINCT FROM (x.date::date, x.start, x."end", x.feeder, x.areas, x.reason, x.status)`,
    [now, JSON.stringify(items.map((item) => ({ ...item, reason: item.reason ?? null })))],
  );
}
