import { describe, expect, it } from 'vitest';
import { judgeCallResult, type CallResult } from './call-result.ts';

describe('judgeCallResult', () => {
  it.each<[string, CallResult, string, string?]>([
    ['201 with a sid is placed', { kind: 'answered', status: 201, sid: 'CA1' }, 'delivered', 'CA1'],
    ['an invalid number fails', { kind: 'answered', status: 400, code: 21211 }, 'failed'],
    ['429 slows the lane down', { kind: 'answered', status: 429, retryAfterSeconds: 3 }, 'slowDown'],
    ['500 is retried', { kind: 'answered', status: 503 }, 'retry'],
    ['a bad credential is retried (an operator fixes it)', { kind: 'answered', status: 401, code: 20003 }, 'retry'],
    ['another 4xx fails', { kind: 'answered', status: 400, code: 21205 }, 'failed'],
    ['201 without a sid fails', { kind: 'answered', status: 201 }, 'failed'],
    ['a timeout is retried', { kind: 'timeout', seconds: 15 }, 'retry'],
    ['a refused connection is retried', { kind: 'network', code: 'ECONNREFUSED' }, 'retry'],
    ['a shutdown is retried', { kind: 'aborted' }, 'retry'],
  ])('%s', (_name, result, kind, sid) => {
    const verdict = judgeCallResult(result);
    expect(verdict.outcome.kind).toBe(kind);
    expect(verdict.sid).toBe(sid);
  });

  it('names the status and code, never the number', () => {
    expect(judgeCallResult({ kind: 'answered', status: 400, code: 21211 }).outcome).toEqual({ kind: 'failed', reason: 'voice gateway 400 (21211)' });
    expect(judgeCallResult({ kind: 'answered', status: 429, retryAfterSeconds: 3 }).outcome).toMatchObject({ retryAfterSeconds: 3 });
  });
});
