import type { Knex } from 'knex';
import type { WorkerDefinition } from '../plugin-api/worker-types.ts';
import { drainInBatches } from '../plugin-api/drain-in-batches.ts';
import { purgeLaneMinutes, purgeSettled } from '../ledger/index.ts';
import { purgeStillOutReports } from '../still-out/index.ts';
import { deleteEndedConsoleSessions, deletePastCounters, deleteUnreferencedEvents } from './retention-repository.ts';

export const RETENTION_WORKER = 'core.retention';

export interface RetentionSettings {
  readonly Days: number;
  readonly BatchSize: number;
  readonly IntervalSeconds: number;
}

/**
 * Storage stays bounded: once a run (one instance per period, an exclusive
 * worker), settled ledger rows older than Retention__Days (their logged
 * attempts go with them) and "still out?" reports as old, then the events
 * no row references any more, then past days' limit counters, in bounded
 * batches until none is left or shutdown. Rows still waiting (pending,
 * retrying, delivering, queued) are never removed, whatever their age.
 *
 * Why the ledger's uniqueness may lapse after the window: a feed's
 * detector decides from its own feed store, which retention never touches,
 * so an old SourceKey is not emitted again (a known outage, a planned
 * outage's change digest, a dated digest or reminder, a counted estimate
 * change); announcements and tests get fresh keys. The ledger guards
 * against repeats inside one process of events, which take minutes, not
 * weeks; the window (at least 7 days) is far beyond it.
 */
export function retentionWorker(db: Knex, settings: RetentionSettings, now: () => Date): WorkerDefinition {
  return {
    name: RETENTION_WORKER,
    intervalSeconds: settings.IntervalSeconds,
    exclusive: true,
    run: async ({ signal, log }) => {
      const at = now();
      const cutoff = new Date(at.getTime() - settings.Days * 24 * 3600 * 1000);
      const removed = { deliveries: 0, events: 0, counters: 0, reports: 0 };
      removed.deliveries = await drainInBatches(settings.BatchSize, signal, (limit) => purgeSettled(db, cutoff, limit));
      removed.reports = await drainInBatches(settings.BatchSize, signal, (limit) => purgeStillOutReports(db, cutoff, limit));
      removed.events = await drainInBatches(settings.BatchSize, signal, (limit) => deleteUnreferencedEvents(db, cutoff, limit));
      removed.counters = await deletePastCounters(db, at.toISOString().slice(0, 10));
      removed.counters += await deleteEndedConsoleSessions(db, at);
      removed.counters += await purgeLaneMinutes(db);
      if (removed.deliveries + removed.events + removed.counters + removed.reports > 0)
        log.info({ ...removed, olderThan: cutoff.toISOString() }, 'retention removed old rows');
    },
  };
}
