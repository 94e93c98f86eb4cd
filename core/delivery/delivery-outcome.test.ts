import { describe, expect, it } from 'vitest';
import type { DeliveryOutcome } from '../plugin-api/delivery-types.ts';
import { judgeDelivery } from './delivery-outcome.ts';

const now = new Date('2026-11-22T10:00:00Z');
const retry = { baseSeconds: 5, maxSeconds: 3600, maxAttempts: 3 };
const inSeconds = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe('judgeDelivery', () => {
  it.each<[string, number, DeliveryOutcome, ReturnType<typeof judgeDelivery>]>([
    ['delivered', 1, { kind: 'delivered' }, { id: 7, status: 'delivered', retryInSeconds: null, error: null }],
    ['refused for good', 1, { kind: 'failed', reason: 'HTTP 403 (40301)' }, { id: 7, status: 'failed', retryInSeconds: null, error: 'HTTP 403 (40301)' }],
    [
      'transient, first attempt: retried after the base backoff',
      1,
      { kind: 'retry', reason: 'HTTP 503' },
      { id: 7, status: 'retrying', retryInSeconds: 5, error: 'HTTP 503' },
    ],
    [
      'transient, second attempt: the backoff doubles',
      2,
      { kind: 'retry', reason: 'timeout' },
      { id: 7, status: 'retrying', retryInSeconds: 10, error: 'timeout' },
    ],
    [
      'transient on the last attempt: failed, saying why',
      3,
      { kind: 'retry', reason: 'HTTP 503' },
      { id: 7, status: 'failed', retryInSeconds: null, error: 'gave up after 3 attempts: HTTP 503' },
    ],
    [
      'a quota that resets later than the backoff: wait for it',
      1,
      { kind: 'retry', reason: 'HTTP 429 (42908)', notBefore: inSeconds(3600) },
      { id: 7, status: 'retrying', retryInSeconds: 3600, error: 'HTTP 429 (42908)' },
    ],
    [
      'told to slow down for 30 s: deferred 30 s, the attempt not counted (even the last)',
      3,
      { kind: 'slowDown', reason: 'sms gateway 429', retryAfterSeconds: 30 },
      { id: 7, status: 'deferred', retryInSeconds: 30, error: 'sms gateway 429' },
    ],
    [
      'told to slow down without a time: deferred 1 s',
      1,
      { kind: 'slowDown', reason: 'smtp 421' },
      { id: 7, status: 'deferred', retryInSeconds: 1, error: 'smtp 421' },
    ],
  ])('%s', (_name, attempt, outcome, expected) => {
    expect(judgeDelivery(7, attempt, outcome, now, 0.5, retry)).toEqual(expected);
  });
});
