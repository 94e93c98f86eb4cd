import { describe, expect, it } from 'vitest';
import { judgeGatewayResult, type GatewayResult } from './gateway-result.ts';

describe('judgeGatewayResult', () => {
  it.each<[string, GatewayResult, string, boolean]>([
    ['201 with a sid is delivered', { kind: 'answered', status: 201, sid: 'SM1' }, 'delivered', false],
    ['201 without a sid fails', { kind: 'answered', status: 201 }, 'failed', false],
    ['21211 (invalid number) fails', { kind: 'answered', status: 400, code: 21211 }, 'failed', false],
    ['21614 (not a mobile number) fails', { kind: 'answered', status: 400, code: 21614 }, 'failed', false],
    ['21610 (replied STOP at the carrier) fails and stops', { kind: 'answered', status: 400, code: 21610 }, 'failed', true],
    ['another 400 fails', { kind: 'answered', status: 400, code: 21602 }, 'failed', false],
    ['429 says to slow down', { kind: 'answered', status: 429, code: 20429 }, 'slowDown', false],
    ['500 is retried', { kind: 'answered', status: 500 }, 'retry', false],
    ['503 is retried', { kind: 'answered', status: 503 }, 'retry', false],
    ['401 (credentials) is retried', { kind: 'answered', status: 401, code: 20003 }, 'retry', false],
    ['a timeout is retried', { kind: 'timeout', seconds: 10 }, 'retry', false],
    ['a refused connection is retried', { kind: 'network', code: 'ECONNREFUSED' }, 'retry', false],
    ['a shutdown is retried', { kind: 'aborted' }, 'retry', false],
  ])('%s', (_name, result, kind, stop) => {
    const verdict = judgeGatewayResult(result);
    expect(verdict.outcome.kind).toBe(kind);
    expect(verdict.stop).toBe(stop);
  });

  it('a 429 with Retry-After says to slow down for that long', () => {
    const verdict = judgeGatewayResult({ kind: 'answered', status: 429, retryAfterSeconds: 30 });
    expect(verdict.outcome).toEqual({ kind: 'slowDown', reason: 'sms gateway 429', retryAfterSeconds: 30 });
  });

  it('names the status and code, never the number or the text', () => {
    expect(judgeGatewayResult({ kind: 'answered', status: 400, code: 21211 }).outcome).toEqual({ kind: 'failed', reason: 'sms gateway 400 (21211)' });
    expect(judgeGatewayResult({ kind: 'answered', status: 201, sid: 'SM9' })).toEqual({
      outcome: { kind: 'delivered', detail: 'SM9' },
      stop: false,
      sid: 'SM9',
    });
  });
});

describe('messageForm', () => {
  it("is the form Twilio's API reads: To, Body, the sender and the callback, every value encoded (a value never adds a field)", async () => {
    const { messageForm } = await import('./gateway-client.ts');
    const form = messageForm(
      { from: '+15005550006' },
      { to: '+94771234567', body: 'Power outage & more\nKandy=1', statusCallback: 'https://a.example/api/sms/status' },
    );
    expect(Object.fromEntries(new URLSearchParams(form))).toEqual({
      To: '+94771234567',
      Body: 'Power outage & more\nKandy=1',
      From: '+15005550006',
      StatusCallback: 'https://a.example/api/sms/status',
    });
    expect(Object.fromEntries(new URLSearchParams(messageForm({ from: '+1', messagingServiceSid: 'MG1' }, { to: '+2', body: 'x' })))).toEqual({
      To: '+2',
      Body: 'x',
      MessagingServiceSid: 'MG1',
    });
  });
});
