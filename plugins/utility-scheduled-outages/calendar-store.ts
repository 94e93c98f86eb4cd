import type { Knex } from 'knex';
import { latestPoll, SELECT, toItem, type ScheduledOutageRow } from './scheduled-store.ts';
import type { ScheduledOutageItem } from './scheduled-types.ts';

export interface CalendarRow extends ScheduledOutageItem {
  sequence: number;
  changedAt: Date;
}

interface Row extends ScheduledOutageRow {
  calendar_sequence: number;
  changed_at: Date | string;
}

/**
 * The outages a calendar lists: dated `today` or later, and either
 * scheduled and shown by the latest successful poll (an item that vanished
 * from the feed is no longer listed, as in the digests), or cancelled since
 * `cancelledSince`. Also when the stored feed last changed.
 */
export async function loadCalendarRows(db: Knex, today: string, cancelledSince: Date): Promise<{ rows: CalendarRow[]; lastPollChange: Date | null }> {
  const rows: Row[] = await db('scheduled_outages')
    .select(db.raw([...SELECT, 'calendar_sequence', 'COALESCE(changed_at, first_seen_at) AS changed_at'].join(', ')))
    .where('outage_date', '>=', today)
    .where((q) =>
      q
        .where((scheduled) => scheduled.where('status', 'scheduled').where('last_seen_at', '>=', latestPoll(db)))
        .orWhere((cancelled) => cancelled.where('status', 'cancelled').where('cancelled_at', '>=', cancelledSince)),
    )
    .orderBy(['outage_date', 'start_time', 'id']);
  const [latest] = await latestPoll(db);
  return {
    rows: rows.map((row) => ({ ...toItem(row), sequence: Number(row.calendar_sequence), changedAt: new Date(row.changed_at) })),
    lastPollChange: latest?.seen_at ? new Date(latest.seen_at) : null,
  };
}
