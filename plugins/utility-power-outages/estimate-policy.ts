import type { NotificationEvent, TellVerdict } from '#plugin-api';
import type { PowerOutageItem } from './outage-types.ts';

const TOLD: TellVerdict = { tell: true };
const MINUTE = 60_000;

/** The estimate an event of an outage carries: an instant (ms), null for none, undefined when its type carries none. */
function estimateOf(event: NotificationEvent): number | null | undefined {
  if (event.eventType !== 'NewOutage' && event.eventType !== 'EstimateUpdated') return undefined;
  const estimate = (event.sourcePayload as PowerOutageItem).estimatedRestoration;
  if (!estimate) return null;
  const at = Date.parse(estimate);
  return Number.isNaN(at) ? null : at;
}

/**
 * Whether a subscriber is told an estimate change: only when the estimate
 * moved by at least `thresholdMinutes` from the last estimate that
 * subscriber was told (`lastTold`), went from none to one, or was
 * withdrawn (the feed tells "no estimate now" too: a time people plan by
 * is gone). Told too when they were told nothing of the outage yet, or
 * nothing with an estimate. Every other event type is told. Pure: the
 * feed's policy, the ledger's memory as input.
 */
export function estimateWorthTelling(event: NotificationEvent, lastTold: NotificationEvent | undefined, thresholdMinutes: number): TellVerdict {
  if (event.eventType !== 'EstimateUpdated' || lastTold === undefined) return TOLD;
  const before = estimateOf(lastTold);
  const now = estimateOf(event) ?? null;
  if (before === undefined) return TOLD;
  if (before === null) return now !== null ? TOLD : { tell: false, reason: 'no estimate yet, as last told' };
  if (now === null) return TOLD;
  const moved = Math.abs(now - before) / MINUTE;
  if (moved >= thresholdMinutes) return TOLD;
  return { tell: false, reason: `the estimate moved ${Math.round(moved)} min from the one last told, less than ${thresholdMinutes}` };
}
