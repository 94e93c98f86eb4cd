import { describe, expect, it } from 'vitest';
import { pushTopic, pushUrgency } from './push-message.ts';
import { judgePushServiceResult, type PushServiceResult } from './push-service-result.ts';

describe('pushTopic', () => {
  it('is the sequence id when it is at most 32 base64url characters, else a digest of it of that length', () => {
    expect(pushTopic('po-PO-1')).toBe('po-PO-1');
    const long = pushTopic('so-utility.scheduled-outages:SO-2026-11-26-0001');
    expect(long).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(pushTopic('so-utility.scheduled-outages:SO-2026-11-26-0001')).toBe(long);
    expect(pushTopic('a:b')).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('urgency is high for High and Urgent only', () => {
    expect(['Min', 'Low', 'Default', 'High', 'Urgent'].map(pushUrgency)).toEqual(['normal', 'normal', 'normal', 'high', 'high']);
  });
});

describe('judgePushServiceResult', () => {
  it.each<[PushServiceResult, string, boolean]>([
    [{ kind: 'answered', status: 201 }, 'delivered', false],
    [{ kind: 'answered', status: 404 }, 'failed', true],
    [{ kind: 'answered', status: 410 }, 'failed', true],
    [{ kind: 'answered', status: 400 }, 'failed', false],
    [{ kind: 'answered', status: 403 }, 'failed', false],
    [{ kind: 'answered', status: 413 }, 'failed', false],
    [{ kind: 'answered', status: 429 }, 'retry', false],
    [{ kind: 'answered', status: 500 }, 'retry', false],
    [{ kind: 'timeout', seconds: 10 }, 'retry', false],
    [{ kind: 'network', code: 'ECONNREFUSED' }, 'retry', false],
    [{ kind: 'refused', reason: 'push.example resolves to no public address' }, 'failed', false],
  ])('%j → %s', (result, kind, stop) => {
    const verdict = judgePushServiceResult(result, new Date('2026-11-26T10:00:00Z'));
    expect([verdict.outcome.kind, verdict.stop]).toEqual([kind, stop]);
  });
});
