import type { Knex } from 'knex';
import type { FeedHealthRecord } from './feed-health-policy.ts';

interface FeedHealthRow {
  feed_id: string;
  last_poll_at: Date | string | null;
  last_success_at: Date | string | null;
  last_change_at: Date | string | null;
  last_error_kind: string | null;
  last_error_message: string | null;
  last_error_at: Date | string | null;
  consecutive_failures: number | string;
  stale: boolean;
  stale_episodes: number | string;
}

const time = (value: Date | string | null) => (value === null ? null : new Date(value));

function toRecord(row: FeedHealthRow): FeedHealthRecord {
  return {
    feedId: row.feed_id,
    lastPollAt: time(row.last_poll_at),
    lastSuccessAt: time(row.last_success_at),
    lastChangeAt: time(row.last_change_at),
    lastError:
      row.last_error_kind === null ? null : { kind: row.last_error_kind, message: row.last_error_message ?? '', at: time(row.last_error_at) ?? new Date(0) },
    consecutiveFailures: Number(row.consecutive_failures),
    stale: row.stale === true,
    staleEpisodes: Number(row.stale_episodes),
  };
}

/**
 * A feed's health row, locked for the rest of the transaction (made on
 * the feed's first poll): two instances recording polls of one feed take
 * turns, so each transition is decided once.
 */
export async function lockFeedHealth(trx: Knex.Transaction, feedId: string): Promise<FeedHealthRecord> {
  await trx.raw('INSERT INTO feed_health (feed_id) VALUES (?) ON CONFLICT (feed_id) DO NOTHING', [feedId]);
  const row: FeedHealthRow = await trx('feed_health').where({ feed_id: feedId }).forUpdate().first();
  return toRecord(row);
}

export async function saveFeedHealth(trx: Knex.Transaction, record: FeedHealthRecord): Promise<void> {
  await trx('feed_health')
    .where({ feed_id: record.feedId })
    .update({
      last_poll_at: record.lastPollAt,
      last_success_at: record.lastSuccessAt,
      last_change_at: record.lastChangeAt,
      last_error_kind: record.lastError?.kind ?? null,
      last_error_message: record.lastError?.message ?? null,
      last_error_at: record.lastError?.at ?? null,
      consecutive_failures: record.consecutiveFailures,
      stale: record.stale,
      stale_episodes: record.staleEpisodes,
      updated_at: trx.fn.now(),
    });
}

/** Every feed polled so far (one row per feed: a handful). */
export async function listFeedHealth(db: Knex): Promise<Map<string, FeedHealthRecord>> {
  const rows: FeedHealthRow[] = await db('feed_health').select('*').orderBy('feed_id').limit(1000);
  return new Map(rows.map((row) => [row.feed_id, toRecord(row)]));
}
