import { describeRejected, type PollReport } from '../feeds/poll-report.ts';

/** What core remembers of a feed's polls (one row per feed, shared by every instance). */
export interface FeedHealthRecord {
  readonly feedId: string;
  readonly lastPollAt: Date | null;
  readonly lastSuccessAt: Date | null;
  readonly lastChangeAt: Date | null;
  /** The latest failure, kept after a recovery (its time tells how long ago). */
  readonly lastError: { readonly kind: string; readonly message: string; readonly at: Date } | null;
  readonly consecutiveFailures: number;
  readonly stale: boolean;
  /** How many times the feed turned stale: numbers each alert, so each is delivered once. */
  readonly staleEpisodes: number;
}

export type HealthTransition = 'turned-stale' | 'recovered';

export interface HealthDecision {
  readonly next: FeedHealthRecord;
  readonly transition: HealthTransition | null;
  /** Failed polls in a row before this one (a recovery's alert says how long the feed was down). */
  readonly failuresBefore: number;
}

export interface FeedHealthSettings {
  /** FeedHealth__StaleAfterPolls: failed polls in a row that make a feed stale. */
  readonly staleAfterPolls: number;
}

export type PollFacts = Pick<PollReport, 'feedId' | 'outcome' | 'startedAt' | 'error' | 'rejected'>;

export const noHealthYet = (feedId: string): FeedHealthRecord => ({
  feedId,
  lastPollAt: null,
  lastSuccessAt: null,
  lastChangeAt: null,
  lastError: null,
  consecutiveFailures: 0,
  stale: false,
  staleEpisodes: 0,
});

/**
 * The record after one more poll, and whether the feed turned stale or
 * recovered with it. A feed is stale once `staleAfterPolls` polls in a row
 * have failed (changed and unchanged are both successes: the feed
 * answered), and stays stale until a poll succeeds: one transition each
 * way, never one per failed poll. A report older than the last one
 * recorded (a slow poll finishing after a later one) changes nothing:
 * null. Pure.
 */
export function nextFeedHealth(previous: FeedHealthRecord, poll: PollFacts, settings: FeedHealthSettings): HealthDecision | null {
  if (previous.lastPollAt && poll.startedAt < previous.lastPollAt) return null;
  const failuresBefore = previous.consecutiveFailures;
  if (poll.outcome === 'failed') {
    const consecutiveFailures = failuresBefore + 1;
    const turnsStale = !previous.stale && consecutiveFailures >= settings.staleAfterPolls;
    const error = poll.error ?? { kind: 'Error', message: 'the poll failed' };
    return {
      next: {
        ...previous,
        lastPollAt: poll.startedAt,
        lastError: { kind: error.kind, message: error.message, at: poll.startedAt },
        consecutiveFailures,
        stale: previous.stale || turnsStale,
        staleEpisodes: previous.staleEpisodes + (turnsStale ? 1 : 0),
      },
      transition: turnsStale ? 'turned-stale' : null,
      failuresBefore,
    };
  }
  // A poll that left items out succeeded (the others were processed), and the items' problem is the latest one to read.
  const rejected = poll.rejected ?? [];
  const lastError = rejected.length > 0 ? { kind: 'RejectedItems', message: describeRejected(rejected), at: poll.startedAt } : previous.lastError;
  return {
    next: {
      ...previous,
      lastError,
      lastPollAt: poll.startedAt,
      lastSuccessAt: poll.startedAt,
      lastChangeAt: poll.outcome === 'changed' ? poll.startedAt : previous.lastChangeAt,
      consecutiveFailures: 0,
      stale: false,
    },
    transition: previous.stale ? 'recovered' : null,
    failuresBefore,
  };
}
