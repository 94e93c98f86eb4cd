import type { PowerOutageChange, PowerOutageItem, StoredPowerOutage } from './outage-types.ts';

/** What the policy reads besides the items and the store: the poll's clock and PowerOutages__MinOutageMinutes. */
export interface OutagePolicy {
  readonly now: Date;
  readonly minOutageMinutes: number;
}

const MINUTE_MS = 60_000;
/** An estimate as an instant; no estimate sorts before any time, so it is never shown and equals only itself. */
const instant = (iso: string | null | undefined): number => (iso == null ? Number.NEGATIVE_INFINITY : Date.parse(iso));

/** Whether an outage that went off at `timeOff` and lasted until `until` is worth announcing. With 0 minutes (the default) always, whatever the clocks say. */
function lastedLongEnough(timeOff: string, until: number, minOutageMinutes: number): boolean {
  return minOutageMinutes === 0 || until - Date.parse(timeOff) >= minOutageMinutes * MINUTE_MS;
}

/** The estimate a notice shows: the feed's, unless it is already earlier than now. */
function shownEstimate(item: PowerOutageItem, now: number): string | null {
  return instant(item.estimatedRestoration) >= now ? item.estimatedRestoration! : null;
}

/**
 * The feed's change policy, a pure function of the polled items, the stored
 * records and the poll's clock:
 *
 * - An ongoing outage not yet announced is NewOutage once it has lasted
 *   `minOutageMinutes` (now - timeOff ≥ the threshold; 0, the default,
 *   announces it at first sight, as the spec does). Until then it is only
 *   recorded; a later poll decides again from the stored record, so a
 *   restart in between changes nothing.
 * - An announced outage that gains timeRestored is Restoration. One never
 *   announced is RestoredAnnouncement when it lasted the threshold
 *   (timeRestored - timeOff ≥ it; a first sighting already restored is the
 *   same case), and nothing at all when it was shorter: a blip is recorded,
 *   never announced, to anyone.
 * - On an announced, still ongoing outage, an estimate that changes (compared
 *   as instants with the stored one) is EstimateUpdated n, n counting that
 *   outage's announced estimate changes, so a return to an earlier value is
 *   news too. A removed estimate is announced as withdrawn: the notice on
 *   the phone must not keep promising a time the utility no longer gives.
 *   An estimate moved to a time earlier than now is not announced (it tells
 *   no one when to expect power; the notice keeps the last estimate until a
 *   usable one or the Restoration replaces it), and a NewOutage does not
 *   show one either. Changes before the announcement are not counted: the
 *   NewOutage shows the estimate of its poll.
 * - A record already restored in the store, and an outage that vanishes from
 *   the feed, give nothing.
 */
export function detectPowerOutageChanges(
  items: readonly PowerOutageItem[],
  existing: ReadonlyMap<string, StoredPowerOutage>,
  policy: OutagePolicy,
): PowerOutageChange[] {
  const now = policy.now.getTime();
  const changes: PowerOutageChange[] = [];
  for (const item of items) {
    const known = existing.get(item.id);
    if (known?.timeRestored) continue;
    if (!known?.outageNotifiedAt) {
      if (item.timeRestored) {
        if (lastedLongEnough(item.timeOff, Date.parse(item.timeRestored), policy.minOutageMinutes))
          changes.push({ kind: 'RestoredAnnouncement', item, existing: known });
      } else if (lastedLongEnough(item.timeOff, now, policy.minOutageMinutes)) {
        changes.push({ kind: 'NewOutage', item, existing: known, estimate: shownEstimate(item, now) });
      }
    } else if (item.timeRestored) {
      changes.push({ kind: 'Restoration', item, existing: known });
    } else if (instant(item.estimatedRestoration) !== instant(known.estimatedRestoration)) {
      const estimate = shownEstimate(item, now);
      if (estimate !== null || item.estimatedRestoration == null) {
        changes.push({ kind: 'EstimateUpdated', item, existing: known, estimate, estimateChange: known.estimateChanges + 1 });
      }
    }
  }
  return changes;
}
