/**
 * Keys a feed's events and renderings repeat in every feed: written once.
 *
 * An event whose feed, SourceKey and event type were seen before is
 * dropped as a duplicate: that is what makes a poll that runs twice (a
 * restart, two instances) deliver once. So an event that can truly happen
 * again to the same item (a boil-water notice issued, lifted, and issued
 * again) needs a SourceKey that differs each time: `occurrenceKey`.
 */

/** `<itemId>#<occurrence>`: the SourceKey of the n-th time (from 1) something happens to one item. */
export function occurrenceKey(itemId: string, occurrence: number): string {
  if (!Number.isInteger(occurrence) || occurrence < 1) throw new RangeError(`occurrenceKey: occurrence must be an integer from 1, got ${occurrence}`);
  return `${itemId}#${occurrence}`;
}

/**
 * The sequence id of a rendering: `<prefix>-<key>` in the characters a push
 * server accepts (others become `_`), at most 64. Messages of one item
 * share it, so a newer one replaces the older on the phone.
 */
export function sequenceId(prefix: string, key: string): string {
  return `${prefix}-${key}`.replace(/[^-_A-Za-z0-9]/g, '_').slice(0, 64);
}
