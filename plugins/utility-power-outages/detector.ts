import type { PowerOutageChange, PowerOutageItem, StoredPowerOutage } from './outage-types.ts';

/**
 * The feed's change policy, a pure function of the polled items and the
 * stored records: a new ongoing outage is NewOutage; a known outage that
 * gains timeRestored is Restoration; a first sighting already restored is
 * RestoredAnnouncement. Anything else (unchanged, vanished) is no change;
 * a restart re-derives nothing the stored state already records.
 */
export function detectPowerOutageChanges(
  items: readonly PowerOutageItem[],
  existing: ReadonlyMap<string, StoredPowerOutage>,
): PowerOutageChange[] {
  const changes: PowerOutageChange[] = [];
  for (const item of items) {
    const known = existing.get(item.id);
    if (!known) {
      changes.push({ kind: item.timeRestored ? 'RestoredAnnouncement' : 'NewOutage', item });
    } else if (item.timeRestored && !known.timeRestored) {
      changes.push({ kind: 'Restoration', item, existing: known });
    }
  }
  return changes;
}
