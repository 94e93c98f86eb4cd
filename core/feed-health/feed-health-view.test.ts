import { describe, expect, it } from 'vitest';
import { noHealthYet, type FeedHealthRecord } from './feed-health-policy.ts';
import { feedHealthView } from './feed-health-view.ts';

const feed = { id: 'utility.power-outages', displayName: 'Power outages', enabled: true, pollingIntervalSeconds: 60 };
const now = new Date('2026-11-24T10:00:00Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
const record = (patch: Partial<FeedHealthRecord>): FeedHealthRecord => ({ ...noHealthYet(feed.id), ...patch });
const at = { now, staleAfterPolls: 5 };

describe('feedHealthView: stale', () => {
  it.each<[string, FeedHealthRecord | undefined, boolean, boolean]>([
    ['never polled yet: nothing to judge', undefined, true, false],
    ['a success one period ago', record({ lastPollAt: minutesAgo(1), lastSuccessAt: minutesAgo(1) }), true, false],
    ['a success exactly 5 periods ago: not yet', record({ lastPollAt: minutesAgo(5), lastSuccessAt: minutesAgo(5) }), true, false],
    ['no poll at all for over 5 periods (the monitor stopped)', record({ lastPollAt: minutesAgo(6), lastSuccessAt: minutesAgo(6) }), true, true],
    [
      '5 failed polls in a row (recorded stale)',
      record({ lastPollAt: minutesAgo(0), lastSuccessAt: minutesAgo(2), consecutiveFailures: 5, stale: true }),
      true,
      true,
    ],
    ['4 failures after a recent success', record({ lastPollAt: minutesAgo(0), lastSuccessAt: minutesAgo(4), consecutiveFailures: 4 }), true, false],
    ['only failures, fewer than 5', record({ lastPollAt: minutesAgo(0), consecutiveFailures: 3 }), true, false],
    ['a silent feed this service does not poll', record({ lastPollAt: minutesAgo(600), lastSuccessAt: minutesAgo(600) }), false, false],
    ['a recorded-stale feed this service does not poll', record({ lastPollAt: minutesAgo(1), consecutiveFailures: 9, stale: true }), false, false],
  ])('%s', (_name, health, enabled, stale) => {
    expect(feedHealthView({ ...feed, enabled }, health, at).stale).toBe(stale);
  });

  it("counts the periods of the feed's own interval", () => {
    const hourly = { ...feed, pollingIntervalSeconds: 3600 };
    expect(feedHealthView(hourly, record({ lastSuccessAt: minutesAgo(299) }), at).stale).toBe(false);
    expect(feedHealthView(hourly, record({ lastSuccessAt: minutesAgo(301) }), at).stale).toBe(true);
  });
});
