import type { EscalationStep } from '../plugin-api/preferences.ts';

/** What a due confirmation does now: send its next escalation step, or land in the "Not confirmed" list. */
export type EscalationMove =
  | { readonly kind: 'send'; readonly step: EscalationStep /** 1 for the first step. */; readonly number: number; readonly nextAt: Date }
  | { readonly kind: 'list' };

const later = (from: Date, minutes: number) => new Date(from.getTime() + minutes * 60_000);

/**
 * When a new confirmation is first due (pure): its first step's delay
 * after the alert, or, with no steps, the wait before it lands in the
 * "Not confirmed" list.
 */
export function firstDueAt(steps: readonly EscalationStep[] | undefined, createdAt: Date, listAfterMinutes: number): Date {
  return later(createdAt, steps?.[0]?.afterMinutes ?? listAfterMinutes);
}

/**
 * What a confirmation due `now` does (pure), `sent` steps on: the next
 * step, due again after the step after it's delay (each counted from the
 * step before), or after `listAfterMinutes` once it is the last; with
 * every step sent, the list.
 */
export function nextMove(steps: readonly EscalationStep[] | undefined, sent: number, now: Date, listAfterMinutes: number): EscalationMove {
  const step = steps?.[sent];
  if (!step) return { kind: 'list' };
  return { kind: 'send', step, number: sent + 1, nextAt: later(now, steps?.[sent + 1]?.afterMinutes ?? listAfterMinutes) };
}
