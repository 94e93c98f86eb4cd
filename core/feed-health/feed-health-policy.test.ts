import { describe, expect, it } from 'vitest';
import { nextFeedHealth, noHealthYet, type FeedHealthRecord, type PollFacts } from './feed-health-policy.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 10, minute));
const FEED = 'utility.power-outages';
const failed = (minute: number, message = 'utility-power-outages: HTTP 500'): PollFacts => ({
  feedId: FEED,
  outcome: 'failed',
  startedAt: at(minute),
  error: { kind: 'EndpointError', message },
});
const ok = (minute: number, outcome: 'changed' | 'unchanged' = 'unchanged'): PollFacts => ({ feedId: FEED, outcome, startedAt: at(minute) });
const settings = { staleAfterPolls: 3 };

/** Runs polls in order from a fresh record; returns each poll's transition and the last record. */
function run(polls: PollFacts[], start: FeedHealthRecord = noHealthYet(FEED)) {
  let record = start;
  const transitions: Array<string | null> = [];
  for (const poll of polls) {
    const decision = nextFeedHealth(record, poll, settings);
    transitions.push(decision?.transition ?? null);
    if (decision) record = decision.next;
  }
  return { transitions, record };
}

describe('feed health: stale after N failed polls in a row, one transition each way', () => {
  it.each([
    { name: 'successes only', polls: [ok(1), ok(2, 'changed'), ok(3)], transitions: [null, null, null], stale: false, failures: 0 },
    { name: 'fewer failures than N', polls: [failed(1), failed(2)], transitions: [null, null], stale: false, failures: 2 },
    { name: 'N failures turn it stale once', polls: [failed(1), failed(2), failed(3)], transitions: [null, null, 'turned-stale'], stale: true, failures: 3 },
    {
      name: 'more failures: still one transition',
      polls: [failed(1), failed(2), failed(3), failed(4), failed(5)],
      transitions: [null, null, 'turned-stale', null, null],
      stale: true,
      failures: 5,
    },
    {
      name: 'a success in between starts the count again',
      polls: [failed(1), failed(2), ok(3), failed(4), failed(5)],
      transitions: [null, null, null, null, null],
      stale: false,
      failures: 2,
    },
    {
      name: 'an unchanged answer recovers it',
      polls: [failed(1), failed(2), failed(3), ok(4)],
      transitions: [null, null, 'turned-stale', 'recovered'],
      stale: false,
      failures: 0,
    },
    {
      name: 'a changed answer recovers it',
      polls: [failed(1), failed(2), failed(3), ok(4, 'changed')],
      transitions: [null, null, 'turned-stale', 'recovered'],
      stale: false,
      failures: 0,
    },
    {
      name: 'stale again later: a second episode',
      polls: [failed(1), failed(2), failed(3), ok(4), ok(5), failed(6), failed(7), failed(8)],
      transitions: [null, null, 'turned-stale', 'recovered', null, null, null, 'turned-stale'],
      stale: true,
      failures: 3,
    },
  ])('$name', ({ polls, transitions, stale, failures }) => {
    const result = run(polls);
    expect(result.transitions).toEqual(transitions);
    expect(result.record.stale).toBe(stale);
    expect(result.record.consecutiveFailures).toBe(failures);
  });

  it('numbers the episodes, so each alert has a key of its own', () => {
    const { record } = run([failed(1), failed(2), failed(3), ok(4), failed(5), failed(6), failed(7)]);
    expect(record.staleEpisodes).toBe(2);
  });

  it('records when, the last success, the last change and the last error (kept after a recovery)', () => {
    const { record } = run([ok(1, 'changed'), ok(2), failed(3, 'utility-power-outages: request failed: no answer within 1000 ms'), ok(4)]);
    expect(record).toMatchObject({
      lastPollAt: at(4),
      lastSuccessAt: at(4),
      lastChangeAt: at(1),
      lastError: { kind: 'EndpointError', message: 'utility-power-outages: request failed: no answer within 1000 ms', at: at(3) },
      consecutiveFailures: 0,
    });
  });

  it('says how many polls had failed before a recovery', () => {
    let record = run([failed(1), failed(2), failed(3), failed(4)]).record;
    const decision = nextFeedHealth(record, ok(5), settings)!;
    expect(decision).toMatchObject({ transition: 'recovered', failuresBefore: 4 });
    record = decision.next;
    expect(record.consecutiveFailures).toBe(0);
  });

  it('ignores a report older than the last one recorded (a slow poll finishing late)', () => {
    const { record } = run([failed(5)]);
    expect(nextFeedHealth(record, ok(4), settings)).toBeNull();
    expect(nextFeedHealth(record, failed(5), settings)?.next.consecutiveFailures).toBe(2);
  });

  it('a stale record stays stale while failing even when N was raised meanwhile', () => {
    const stale = run([failed(1), failed(2), failed(3)]).record;
    const decision = nextFeedHealth(stale, failed(4), { staleAfterPolls: 10 })!;
    expect(decision).toMatchObject({ transition: null, next: { stale: true, consecutiveFailures: 4 } });
  });

  it('N = 1: the first failure turns it stale', () => {
    expect(nextFeedHealth(noHealthYet(FEED), failed(1), { staleAfterPolls: 1 })?.transition).toBe('turned-stale');
  });
});
