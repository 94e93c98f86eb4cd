import type { Knex } from 'knex';
import { runKey, type DueDigest } from './digest-gating.ts';

/** Recorded runs whose keys the gating policy may ask about now: today's, this week's, tomorrow's reminder. */
export async function loadRecordedRuns(db: Knex | Knex.Transaction, periods: readonly string[], reminderDates: readonly string[]): Promise<Set<string>> {
  const digests = await db('scheduled_outage_digest_runs')
    .select('digest_type', 'period')
    .whereIn('period', [...periods]);
  const reminders = reminderDates.length
    ? await db('scheduled_outage_reminder_runs')
        .select(db.raw('outage_date::text AS outage_date'))
        .whereIn('outage_date', [...reminderDates])
    : [];
  return new Set([
    ...digests.map((row: { digest_type: DueDigest['kind']; period: string }) => runKey(row.digest_type, row.period)),
    ...reminders.map((row: { outage_date: string }) => runKey('DayBeforeReminder', row.outage_date)),
  ]);
}

/** Records a sent digest or reminder, once (a concurrent record of the same period is a no-op). */
export async function recordRun(trx: Knex.Transaction, digest: DueDigest, now: Date): Promise<void> {
  if (digest.kind === 'DayBeforeReminder') {
    await trx.raw('INSERT INTO scheduled_outage_reminder_runs (outage_date, source_key, sent_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [
      digest.period,
      digest.sourceKey,
      now,
    ]);
  } else {
    await trx.raw('INSERT INTO scheduled_outage_digest_runs (digest_type, period, source_key, sent_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING', [
      digest.kind,
      digest.period,
      digest.sourceKey,
      now,
    ]);
  }
}
