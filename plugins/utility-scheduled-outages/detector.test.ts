import { describe, expect, it } from 'vitest';
import { detectScheduledOutageChanges } from './detector.ts';
import { sourceKeyOf, toNotificationEvents } from './event-mapper.ts';
import type { ScheduledOutageItem } from './scheduled-types.ts';

const base: ScheduledOutageItem = {
  id: 'SO-77',
  date: '2026-11-24',
  start: '09:00',
  end: '17:00',
  feeder: 'F3',
  areas: ['Gampola'],
  reason: 'Maintenance',
  status: 'scheduled',
};
const item = (patch: Partial<ScheduledOutageItem> = {}) => ({ ...base, ...patch });

describe('detectScheduledOutageChanges', () => {
  it.each<[string, ScheduledOutageItem[], ScheduledOutageItem[], Array<[string, Array<[string, string, string]>]>]>([
    ['a new item', [item()], [], [['NewEntry', []]]],
    ['a new item that arrives already cancelled', [item({ status: 'cancelled' })], [], []],
    ['an unchanged item', [item()], [item()], []],
    ['a changed end time', [item({ end: '18:00' })], [item()], [['Updated', [['end', '17:00', '18:00']]]]],
    [
      'a moved date and a new feeder',
      [item({ date: '2026-11-25', feeder: 'F4' })],
      [item()],
      [
        [
          'Updated',
          [
            ['date', '2026-11-24', '2026-11-25'],
            ['feeder', 'F3', 'F4'],
          ],
        ],
      ],
    ],
    ['areas in another order are no change', [item({ areas: ['B', 'A'] })], [item({ areas: ['A', 'B'] })], []],
    ['an added area', [item({ areas: ['Gampola', 'Nawalapitiya'] })], [item()], [['Updated', [['areas', 'Gampola', 'Gampola, Nawalapitiya']]]]],
    ['a reason alone is no change', [item({ reason: 'Tree trimming' })], [item()], []],
    ['a cancellation', [item({ status: 'cancelled' })], [item()], [['Cancelled', []]]],
    ['a cancellation seen again', [item({ status: 'cancelled' })], [item({ status: 'cancelled' })], []],
    ['an item that disappears', [], [item()], []],
  ])('%s', (_name, items, stored, expected) => {
    const changes = detectScheduledOutageChanges(items, new Map(stored.map((s) => [s.id, s])));
    expect(changes.map((c) => [c.kind, c.changes.map((f) => [f.field, f.from, f.to])])).toEqual(expected);
  });
});

describe('scheduled-outage SourceKeys and events', () => {
  it('keys Updated events by id plus a digest of the change, so distinct changes are distinct', () => {
    const first = detectScheduledOutageChanges([item({ end: '18:00' })], new Map([['SO-77', item()]]))[0];
    const second = detectScheduledOutageChanges([item({ end: '19:00' })], new Map([['SO-77', item({ end: '18:00' })]]))[0];
    expect(sourceKeyOf(first)).toMatch(/^SO-77-[0-9a-f]{12}$/);
    expect(sourceKeyOf(second)).not.toBe(sourceKeyOf(first));
    expect(sourceKeyOf(first)).toBe(sourceKeyOf(detectScheduledOutageChanges([item({ end: '18:00' })], new Map([['SO-77', item()]]))[0]));
    expect(sourceKeyOf({ kind: 'NewEntry', item: item(), changes: [] })).toBe('SO-77');
  });

  it('maps changes to events with filterable fields and the item key', () => {
    const change = detectScheduledOutageChanges([item({ end: '18:00', areas: ['Gampola', 'Kandy'] })], new Map([['SO-77', item()]]))[0];
    const [event] = toNotificationEvents([{ ...change, sourceKey: sourceKeyOf(change) }]);
    expect(event).toMatchObject({
      feedId: 'utility.scheduled-outages',
      eventType: 'Updated',
      itemKey: 'SO-77',
      fields: { feeder: 'F3', areas: 'Gampola, Kandy', reason: 'Maintenance' },
    });
    expect(event.sourcePayload).toEqual({ item: change.item, changes: change.changes });
  });
});
