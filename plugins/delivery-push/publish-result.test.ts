import { describe, expect, it } from 'vitest';
import { nextUtcMidnight, outcomeOf, type PublishResult } from './publish-result.ts';

const now = new Date('2026-11-22T23:59:30.000Z');
const answered = (status: number, code?: number, error?: string): PublishResult => ({ kind: 'answered', status, code, error });

describe('outcomeOf', () => {
  it.each([
    [answered(200), 'delivered', undefined],
    [answered(400, 40009, 'invalid request: topic invalid'), 'failed', 'push server 400 (40009 invalid request: topic invalid)'],
    [answered(401, 40101, 'unauthorized'), 'failed', 'push server 401 (40101 unauthorized)'],
    [answered(403, 40301, 'forbidden'), 'failed', 'push server 403 (40301 forbidden)'],
    [answered(404, 40401, 'page not found'), 'failed', 'push server 404 (40401 page not found)'],
    [answered(413, 41303, 'JSON body too large'), 'failed', 'push server 413 (41303 JSON body too large)'],
    [answered(429, 42909, 'too many auth failures'), 'failed', 'push server 429 (42909 too many auth failures)'],
    [answered(429, 42901, 'limit reached'), 'slowDown', 'push server 429 (42901 limit reached)'],
    [answered(429), 'slowDown', 'push server 429'],
    [answered(500, 50001, 'internal server error'), 'retry', 'push server 500 (50001 internal server error)'],
    [answered(502), 'retry', 'push server 502'],
    [answered(503, undefined, 'service unavailable'), 'retry', 'push server 503 (service unavailable)'],
    [{ kind: 'timeout', seconds: 10 }, 'retry', 'push server did not answer within 10 s'],
    [
      { kind: 'network', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' },
      'retry',
      'push server unreachable: ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:9)',
    ],
    [{ kind: 'aborted' }, 'retry', 'publish interrupted by shutdown'],
  ] as const)('%j → %s', (result, kind, reason) => {
    const outcome = outcomeOf(result, now);
    expect(outcome.kind).toBe(kind);
    if (outcome.kind !== 'delivered') expect(outcome.reason).toBe(reason);
    if (outcome.kind === 'retry') expect(outcome.notBefore).toBeUndefined();
  });

  it('a 429 with a Retry-After says to slow down for that long', () => {
    expect(outcomeOf({ kind: 'answered', status: 429, code: 42901, retryAfterSeconds: 12 }, now)).toEqual({
      kind: 'slowDown',
      reason: 'push server 429 (42901)',
      retryAfterSeconds: 12,
    });
  });

  it('retries the daily quota (42908) at the next UTC midnight', () => {
    expect(outcomeOf(answered(429, 42908, 'limit reached: daily message quota reached'), now)).toEqual({
      kind: 'retry',
      reason: 'push server 429 (42908 limit reached: daily message quota reached)',
      notBefore: new Date('2026-11-23T00:00:00.000Z'),
    });
  });
});

describe('nextUtcMidnight', () => {
  it.each([
    ['2026-11-22T00:00:00.000Z', '2026-11-23T00:00:00.000Z'],
    ['2026-11-22T12:34:56.789Z', '2026-11-23T00:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', '2027-01-01T00:00:00.000Z'],
    ['2028-02-28T10:00:00.000Z', '2028-02-29T00:00:00.000Z'],
    ['2026-11-22T22:30:00.000-05:00', '2026-11-24T00:00:00.000Z'],
  ])('%s → %s', (at, expected) => {
    expect(nextUtcMidnight(new Date(at)).toISOString()).toBe(expected);
  });
});
