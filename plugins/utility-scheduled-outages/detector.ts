import { TRACKED_FIELDS, type FieldChange, type ScheduledOutageChange, type ScheduledOutageItem } from './scheduled-types.ts';

const fieldValue = (item: ScheduledOutageItem, field: (typeof TRACKED_FIELDS)[number]) =>
  field === 'areas' ? [...item.areas].sort().join(', ') : String(item[field]);

export function diffTrackedFields(before: ScheduledOutageItem, after: ScheduledOutageItem): FieldChange[] {
  return TRACKED_FIELDS.flatMap((field) => {
    const from = fieldValue(before, field);
    const to = fieldValue(after, field);
    return from === to ? [] : [{ field, from, to }];
  });
}

/**
 * The feed's change policy, pure: a new item is NewEntry (unless it arrives
 * already cancelled: nothing to announce); a known item whose status turns
 * cancelled is Cancelled; a known, still scheduled item whose time, area or
 * feeder changed is Updated with the changes. An item that merely vanishes
 * from the feed is not announced.
 */
export function detectScheduledOutageChanges(
  items: readonly ScheduledOutageItem[],
  existing: ReadonlyMap<string, ScheduledOutageItem>,
): ScheduledOutageChange[] {
  const changes: ScheduledOutageChange[] = [];
  for (const item of items) {
    const known = existing.get(item.id);
    if (!known) {
      if (item.status !== 'cancelled') changes.push({ kind: 'NewEntry', item, changes: [] });
      continue;
    }
    if (item.status === 'cancelled') {
      if (known.status !== 'cancelled') changes.push({ kind: 'Cancelled', item, existing: known, changes: [] });
      continue;
    }
    const diff = diffTrackedFields(known, item);
    if (diff.length > 0) changes.push({ kind: 'Updated', item, existing: known, changes: diff });
  }
  return changes;
}
