import { describe, expect, it } from 'vitest';
import { judgeHttpAnswer } from './http-answer.ts';
import type { OutboundResult } from './outbound-client.ts';

const receiver = { peer: 'receiver', goneStatuses: [410], goneMeans: 'the receiver ended the subscription', slowDownScope: 'delivery' } as const;
const pushService = { peer: 'push service', goneStatuses: [404, 410] } as const;

describe('judgeHttpAnswer: one judge of an HTTP answer for any target (gone: failed, and core stops the subscription)', () => {
  it.each<[string, OutboundResult, string, string]>([
    ['200 delivered', { kind: 'answered', status: 200 }, 'delivered', 'delivered'],
    ['201 delivered', { kind: 'answered', status: 201 }, 'delivered', 'delivered'],
    ['410 gone for both', { kind: 'answered', status: 410 }, 'gone', 'gone'],
    ['404 gone where the target says so, failed elsewhere', { kind: 'answered', status: 404 }, 'failed', 'gone'],
    ['400 failed', { kind: 'answered', status: 400 }, 'failed', 'failed'],
    ['403 failed', { kind: 'answered', status: 403 }, 'failed', 'failed'],
    ['301 failed (redirects are not followed)', { kind: 'answered', status: 301 }, 'failed', 'failed'],
    ['429 slows down (not an attempt)', { kind: 'answered', status: 429 }, 'slowDown', 'slowDown'],
    ['500 retried', { kind: 'answered', status: 500 }, 'retry', 'retry'],
    ['503 retried', { kind: 'answered', status: 503 }, 'retry', 'retry'],
    ['a timeout retried', { kind: 'timeout', seconds: 10 }, 'retry', 'retry'],
    ['a reset connection retried', { kind: 'network', code: 'ECONNRESET' }, 'retry', 'retry'],
    ['shutdown retried', { kind: 'aborted' }, 'retry', 'retry'],
    ['a private address failed', { kind: 'refused', reason: 'hooks.example.org resolves to no public address' }, 'failed', 'failed'],
  ])('%s', (_name, result, forReceiver, forPushService) => {
    const kind = (outcome: ReturnType<typeof judgeHttpAnswer>) => (outcome.kind === 'failed' && outcome.gone ? 'gone' : outcome.kind);
    expect([kind(judgeHttpAnswer(result, receiver)), kind(judgeHttpAnswer(result, pushService))]).toEqual([forReceiver, forPushService]);
  });

  it("says why in the peer's words, and a 429 carries its Retry-After and whose rate it is", () => {
    expect(judgeHttpAnswer({ kind: 'answered', status: 410 }, receiver)).toEqual({
      kind: 'failed',
      gone: true,
      code: '410',
      reason: 'receiver 410: the receiver ended the subscription',
    });
    expect(judgeHttpAnswer({ kind: 'answered', status: 429, retryAfterSeconds: 60 }, receiver)).toEqual({
      kind: 'slowDown',
      reason: 'receiver 429',
      scope: 'delivery',
      retryAfterSeconds: 60,
    });
    expect(judgeHttpAnswer({ kind: 'answered', status: 429 }, pushService)).toEqual({ kind: 'slowDown', reason: 'push service 429', scope: 'lane' });
    expect(judgeHttpAnswer({ kind: 'timeout', seconds: 10 }, pushService)).toEqual({ kind: 'retry', reason: 'push service did not answer within 10 s' });
  });
});
