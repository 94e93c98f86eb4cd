import { describe, expect, it } from 'vitest';
import { firstDueAt, nextMove } from './escalation-policy.ts';

const at = (time: string) => new Date(`2026-11-26T${time}:00Z`);
const sms = { provider: 'Sms', destination: '+94771234567', afterMinutes: 5 };
const voice = { provider: 'Voice', destination: '+94112345678', afterMinutes: 10 };
const LIST_AFTER = 30;

describe('escalation policy: each step after its delay from the one before, then the list', () => {
  it.each([
    ['the first step is due its delay after the alert', [sms, voice], at('10:05')],
    ['with no steps, the list is due after its wait', [], at('10:30')],
    ['with no escalation set, the same', undefined, at('10:30')],
  ])('%s', (_name, steps, expected) => {
    expect(firstDueAt(steps, at('10:00'), LIST_AFTER)).toEqual(expected);
  });

  it.each([
    ['the first step goes, the second due 10 min later', [sms, voice], 0, at('10:05'), { kind: 'send', step: sms, number: 1, nextAt: at('10:15') }],
    ['the second step goes, the list due after its wait', [sms, voice], 1, at('10:15'), { kind: 'send', step: voice, number: 2, nextAt: at('10:45') }],
    ['every step sent: the list', [sms, voice], 2, at('10:45'), { kind: 'list' }],
    ['no steps: the list', [], 0, at('10:30'), { kind: 'list' }],
    [
      'a late run counts the next delay from when the step really went',
      [sms, voice],
      0,
      at('11:00'),
      { kind: 'send', step: sms, number: 1, nextAt: at('11:10') },
    ],
  ])('%s', (_name, steps, sent, now, expected) => {
    expect(nextMove(steps, sent, now, LIST_AFTER)).toEqual(expected);
  });
});
