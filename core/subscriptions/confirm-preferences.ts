import { Errors } from '../errors.ts';
import type { Caller } from '../http/caller-auth.ts';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import type { EscalationStep, SubscriberPreferences } from '../plugin-api/preferences.ts';

const isAdmin = (caller: Caller) => caller.kind === 'user' && caller.admin;
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The preferences to store, as far as `confirm` and `escalation` go (the
 * rest is the subscriber's own): only an admin (or the console) sets or
 * changes them. A subscriber's request that would change them is a 403
 * naming the field; one that leaves them out (or repeats them as stored)
 * keeps what an admin set. An admin's escalation is checked step by step:
 * an installed provider, a destination that provider takes (in its form,
 * as a system subscription's: no verification), and `confirm` with it.
 */
export function withConfirmPreferences(
  caller: Caller,
  given: SubscriberPreferences,
  stored: SubscriberPreferences | null | undefined,
  targets: ReadonlyMap<string, DeliveryTarget>,
): SubscriberPreferences {
  const { confirm, escalation, ...own } = given;
  if (!isAdmin(caller)) {
    for (const [field, value] of [
      ['confirm', confirm],
      ['escalation', escalation],
    ] as const) {
      if (value !== undefined && !same(value, stored?.[field])) {
        throw new Errors.Forbidden(`body/preferences/${field} can be set only by an admin`);
      }
    }
    return {
      ...own,
      ...(stored?.confirm === undefined ? {} : { confirm: stored.confirm }),
      ...(stored?.escalation === undefined ? {} : { escalation: stored.escalation }),
    };
  }
  if (escalation && escalation.length > 0 && confirm !== true) {
    throw new Errors.InvalidField('body/preferences/escalation needs body/preferences/confirm set to true');
  }
  return {
    ...own,
    ...(confirm === undefined ? {} : { confirm }),
    ...(escalation === undefined ? {} : { escalation: escalation.map((step, index) => checkedStep(step, index, targets)) }),
  };
}

function checkedStep(step: EscalationStep, index: number, targets: ReadonlyMap<string, DeliveryTarget>): EscalationStep {
  const field = `body/preferences/escalation/${index}`;
  const target = targets.get(step.provider);
  if (!target) throw new Errors.InvalidField(`${field}/provider: ${step.provider} is not available`);
  if (!target.takesEscalationSteps) throw new Errors.InvalidField(`${field}/provider: ${step.provider} cannot take escalation steps (Sms and Voice can)`);
  try {
    return { provider: step.provider, destination: target.prepareDestination(step.destination, { scope: 'System' }), afterMinutes: step.afterMinutes };
  } catch (err) {
    const message = err instanceof Error ? err.message.replace(/^body\/delivery\/destination/, `${field}/destination`) : 'is not valid';
    throw new Errors.InvalidField(message.startsWith(field) ? message : `${field}/destination: ${message}`);
  }
}
