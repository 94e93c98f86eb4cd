import type { FeedHealthRecord } from './feed-health-policy.ts';

/** A feed as the admin view lists it. */
export interface MonitoredFeed {
  readonly id: string;
  readonly displayName: string;
  readonly enabled: boolean;
  readonly pollingIntervalSeconds: number;
}

/**
 * A feed's health as `GET /api/admin/feeds` shows it. `stale` is the
 * recorded state (`staleAfterPolls` failed polls in a row, until one
 * succeeds) or a silence as long: no success for `staleAfterPolls` polling
 * periods, which is what a monitor that stopped polling altogether looks
 * like (it fails no poll, so the record alone never says so). A feed this
 * service does not poll is not said to be stale (its record stays, and a
 * recovery is still told). A feed never polled yet has nothing to judge.
 * Pure: the clock is an input.
 */
export function feedHealthView(feed: MonitoredFeed, record: FeedHealthRecord | undefined, at: { now: Date; staleAfterPolls: number }) {
  const iso = (value: Date | null | undefined) => value?.toISOString() ?? null;
  const lastSuccess = record?.lastSuccessAt ?? null;
  const silent = lastSuccess !== null && at.now.getTime() - lastSuccess.getTime() > at.staleAfterPolls * feed.pollingIntervalSeconds * 1000;
  return {
    ...feed,
    lastPollAt: iso(record?.lastPollAt),
    lastSuccessAt: iso(lastSuccess),
    lastChangeAt: iso(record?.lastChangeAt),
    lastError: record?.lastError ? { kind: record.lastError.kind, message: record.lastError.message, at: record.lastError.at.toISOString() } : null,
    consecutiveFailures: record?.consecutiveFailures ?? 0,
    stale: feed.enabled && ((record?.stale ?? false) || silent),
  };
}
