import { describe, expect, it } from 'vitest';
import { detectPowerOutageChanges } from './detector.ts';
import type { PowerOutageItem, StoredPowerOutage } from './outage-types.ts';

const item = (id: string, timeRestored: string | null = null): PowerOutageItem => ({
  id, feeder: 'F12', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored,
});
const stored = (id: string, timeRestored: string | null = null): [string, StoredPowerOutage] => [
  id, { id, timeRestored, outageNotifiedAt: '2026-11-22T02:46:00.000Z' },
];
const RESTORED = '2026-11-22T10:00:00+05:30';

describe('detectPowerOutageChanges', () => {
  it.each<[string, PowerOutageItem[], Array<[string, StoredPowerOutage]>, Array<[string, string]>]>([
    ['a new ongoing outage', [item('PO-1')], [], [['NewOutage', 'PO-1']]],
    ['an existing outage gets restored', [item('PO-1', RESTORED)], [stored('PO-1')], [['Restoration', 'PO-1']]],
    ['a first sighting already restored', [item('PO-2', RESTORED)], [], [['RestoredAnnouncement', 'PO-2']]],
    ['an unchanged ongoing outage', [item('PO-1')], [stored('PO-1')], []],
    ['an unchanged restored outage', [item('PO-1', RESTORED)], [stored('PO-1', '2026-11-22T04:30:00.000Z')], []],
    ['after a restart the stored state says what was seen', [item('PO-1'), item('PO-3', RESTORED)], [stored('PO-1'), stored('PO-3', RESTORED)], []],
    ['an outage that disappears from the feed', [], [stored('PO-1')], []],
    ['several at once, in feed order', [item('PO-5'), item('PO-1', RESTORED), item('PO-6', RESTORED)], [stored('PO-1')], [['NewOutage', 'PO-5'], ['Restoration', 'PO-1'], ['RestoredAnnouncement', 'PO-6']]],
  ])('%s', (_name, items, existing, expected) => {
    const changes = detectPowerOutageChanges(items, new Map(existing));
    expect(changes.map((change) => [change.kind, change.item.id])).toEqual(expected);
  });

  it('keeps the stored record on a Restoration', () => {
    const [change] = detectPowerOutageChanges([item('PO-1', RESTORED)], new Map([stored('PO-1')]));
    expect(change.existing).toEqual(stored('PO-1')[1]);
  });
});
