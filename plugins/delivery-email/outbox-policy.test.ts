import { describe, expect, it } from 'vitest';
import { attemptsExhausted, backoffSeconds, classifySendError, nextState, type RetrySettings, type SendResult } from './outbox-policy.ts';

const settings: RetrySettings = { baseSeconds: 30, maxSeconds: 3600, maxAttempts: 8 };
const now = new Date('2026-11-22T10:00:00.000Z');
const transient: SendResult = { kind: 'rejected', permanent: false, reason: 'SMTP 451 on DATA (EMESSAGE)' };
const permanent: SendResult = { kind: 'rejected', permanent: true, reason: 'SMTP 550 on RCPT TO (EENVELOPE)' };

describe('backoffSeconds', () => {
  it.each([
    // attempt, random, seconds
    [1, 0.5, 30],
    [2, 0.5, 60],
    [3, 0.5, 120],
    [7, 0.5, 1920],
    [8, 0.5, 3600],
    [20, 0.5, 3600],
    [1, 0, 24],
    [1, 1, 36],
    [8, 1, 4320],
    [1, -3, 24],
    [1, 7, 36],
  ])('attempt %i with random %f waits %f s', (attempt, random, seconds) => {
    expect(backoffSeconds(attempt, random, settings)).toBeCloseTo(seconds, 6);
  });
});

describe('nextState', () => {
  it.each<[string, number, SendResult, ReturnType<typeof nextState>]>([
    ['accepted on the first try', 1, { kind: 'accepted', response: '250 OK' }, { state: 'sent' }],
    ['accepted on the last try', 8, { kind: 'accepted', response: '250 OK' }, { state: 'sent' }],
    ['transient, attempts left', 1, transient, { state: 'failed', dueAt: new Date(now.getTime() + 30_000), error: transient.reason }],
    ['transient, third attempt', 3, transient, { state: 'failed', dueAt: new Date(now.getTime() + 120_000), error: transient.reason }],
    ['transient on the last attempt', 8, transient, { state: 'dead', error: `gave up after 8 attempts: ${transient.reason}` }],
    ['permanent on the first attempt', 1, permanent, { state: 'dead', error: permanent.reason }],
    [
      'told to slow down on the last attempt: pending again for the pause, never dead',
      8,
      { kind: 'rejected', permanent: false, slowDown: true, reason: 'SMTP 421 on MAIL FROM (EENVELOPE)' },
      { state: 'deferred', dueAt: new Date(now.getTime() + 4_000), error: 'SMTP 421 on MAIL FROM (EENVELOPE)' },
    ],
  ])('%s', (_name, attempt, result, expected) => {
    expect(nextState(attempt, result, now, 0.5, settings, 4)).toEqual(expected);
  });

  it('with MaxAttempts 1 the first transient failure is final', () => {
    expect(nextState(1, transient, now, 0.5, { ...settings, maxAttempts: 1 }).state).toBe('dead');
  });
});

describe('attemptsExhausted', () => {
  it.each([
    [1, false],
    [8, false],
    [9, true],
  ])('claim number %i is beyond MaxAttempts 8: %s', (attempt, exhausted) => {
    expect(attemptsExhausted(attempt, settings)).toBe(exhausted);
  });
});

describe('classifySendError', () => {
  it.each([
    [{ code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' }, true, false, 'SMTP 550 on RCPT TO (EENVELOPE)'],
    [{ code: 'EMESSAGE', responseCode: 554, command: 'DATA' }, true, false, 'SMTP 554 on DATA (EMESSAGE)'],
    // Throttling: 421, 451, 454 say to slow down.
    [{ code: 'EMESSAGE', responseCode: 451, command: 'DATA' }, false, true, 'SMTP 451 on DATA (EMESSAGE)'],
    [{ code: 'EENVELOPE', responseCode: 421, command: 'MAIL FROM' }, false, true, 'SMTP 421 on MAIL FROM (EENVELOPE)'],
    [{ code: 'EAUTH', responseCode: 454, command: 'AUTH PLAIN' }, false, true, 'SMTP 454 on AUTH PLAIN (EAUTH)'],
    [{ code: 'EENVELOPE', responseCode: 452, command: 'RCPT TO' }, false, false, 'SMTP 452 on RCPT TO (EENVELOPE)'],
    // Refused credentials: a configuration fault, retried while an operator fixes it.
    [{ code: 'EAUTH', responseCode: 535, command: 'AUTH PLAIN' }, false, false, 'SMTP 535 on AUTH PLAIN (EAUTH)'],
    [{ code: 'ECONNECTION' }, false, false, 'SMTP ECONNECTION'],
    [{ code: 'ETIMEDOUT', command: 'CONN' }, false, false, 'SMTP ETIMEDOUT on CONN'],
    [{ message: 'something odd' }, false, false, 'SMTP ERROR'],
  ])('%o → permanent %s, slow down %s', (error, permanentExpected, slowDown, reason) => {
    expect(classifySendError(error)).toEqual({ permanent: permanentExpected, slowDown, reason });
  });

  it('never copies the error message (it may quote the message or the credentials)', () => {
    expect(classifySendError({ code: 'EAUTH', responseCode: 535, message: 'Invalid login: secret-key' }).reason).not.toContain('secret');
  });
});
