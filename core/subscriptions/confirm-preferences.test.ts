import { describe, expect, it } from 'vitest';
import { Errors } from '../errors.ts';
import type { Caller } from '../http/caller-auth.ts';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import { withConfirmPreferences } from './confirm-preferences.ts';

const admin: Caller = { kind: 'user', userId: 'ops', admin: true };
const user: Caller = { kind: 'user', userId: 'someone', admin: false };
const anonymous: Caller = { kind: 'anonymous' };
/** A target that takes numbers written with a leading 0 as Sri Lankan, and refuses the rest. */
const sms = {
  provider: 'Sms',
  takesEscalationSteps: true,
  prepareDestination: (value: string | undefined) => {
    if (value?.startsWith('0')) return `+94${value.slice(1).replaceAll(' ', '')}`;
    if (value?.startsWith('+94')) return value;
    throw new Errors.InvalidField('body/delivery/destination must be a mobile phone number');
  },
} as unknown as DeliveryTarget;
const targets = new Map([
  ['Sms', sms],
  ['Email', { provider: 'Email', prepareDestination: (value: string) => value } as unknown as DeliveryTarget],
]);
const step = { provider: 'Sms', destination: '077 123 4567', afterMinutes: 5 };
const stored = { confirm: true, escalation: [{ provider: 'Sms', destination: '+94771234567', afterMinutes: 5 }] };

describe('withConfirmPreferences: only an admin sets confirm and escalation', () => {
  it.each([
    ['an admin sets them; the destination in the provider form', admin, { confirm: true, escalation: [step] }, undefined, stored],
    ['a subscriber changing the rest keeps them', anonymous, { language: 'ta' }, stored, { language: 'ta', ...stored }],
    ['a subscriber repeating them as read keeps them', user, { ...stored, timeZone: 'Asia/Colombo' }, stored, { timeZone: 'Asia/Colombo', ...stored }],
    ['a subscriber without them gets none', anonymous, { language: 'si' }, undefined, { language: 'si' }],
    ['an admin may take them away', admin, { language: 'en' }, stored, { language: 'en' }],
  ])('%s', (_name, caller, given, before, expected) => {
    expect(withConfirmPreferences(caller, given, before, targets)).toEqual(expected);
  });

  it.each([
    ['a subscriber setting confirm', anonymous, { confirm: true }, undefined, 'body/preferences/confirm can be set only by an admin'],
    ['a subscriber turning it off', user, { confirm: false }, stored, 'body/preferences/confirm can be set only by an admin'],
    ['a subscriber emptying the escalation', anonymous, { escalation: [] }, stored, 'body/preferences/escalation can be set only by an admin'],
    ['an escalation without confirm', admin, { escalation: [step] }, undefined, 'body/preferences/escalation needs body/preferences/confirm set to true'],
    [
      'a provider that takes no steps',
      admin,
      { confirm: true, escalation: [{ ...step, provider: 'Email' }] },
      undefined,
      'body/preferences/escalation/0/provider: Email cannot take escalation steps (Sms and Voice can)',
    ],
    [
      'a provider not installed',
      admin,
      { confirm: true, escalation: [{ ...step, provider: 'Fax' }] },
      undefined,
      'body/preferences/escalation/0/provider: Fax is not available',
    ],
    [
      'a destination the provider refuses',
      admin,
      { confirm: true, escalation: [step, { ...step, destination: '+1 900 555 1234' }] },
      undefined,
      'body/preferences/escalation/1/destination must be a mobile phone number',
    ],
  ])('refuses %s', (_name, caller, given, before, message) => {
    expect(() => withConfirmPreferences(caller, given, before, targets)).toThrow(message);
  });
});
