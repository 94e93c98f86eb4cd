import { describe, expect, it } from 'vitest';
import { detectPowerOutageChanges } from './detector.ts';
import type { PowerOutageChange, PowerOutageItem, StoredPowerOutage } from './outage-types.ts';

// Every outage went off at OFF; times are given in minutes after it.
const OFF = '2026-11-22T08:00:00+05:30';
const after = (minutes: number) => new Date(Date.parse(OFF) + minutes * 60_000).toISOString();
const JUST_UNDER = 10 - 1 / 60_000; // one millisecond short of 10 minutes

const item = (id: string, patch: Partial<PowerOutageItem> = {}): PowerOutageItem => ({
  id,
  feeder: 'F12',
  areas: ['Kandy'],
  timeOff: OFF,
  timeRestored: null,
  ...patch,
});
const record = (id: string, patch: Partial<StoredPowerOutage> = {}): [string, StoredPowerOutage] => [
  id,
  { id, timeRestored: null, outageNotifiedAt: after(0), estimatedRestoration: null, estimateChanges: 0, ...patch },
];
/** A stored outage still waiting for its announcement. */
const waiting = (id: string, patch: Partial<StoredPowerOutage> = {}) => record(id, { outageNotifiedAt: null, ...patch });

/** A change in one line: kind, id, and the estimate and n when the change carries them. */
const describeChange = (change: PowerOutageChange) =>
  [
    change.kind,
    change.item.id,
    ...(change.estimate === undefined ? [] : [`estimate=${change.estimate}`]),
    ...(change.estimateChange === undefined ? [] : [`n=${change.estimateChange}`]),
  ].join(' ');

type Row = [name: string, items: PowerOutageItem[], stored: Array<[string, StoredPowerOutage]>, nowMinutes: number, expected: string[]];
const detect = (items: PowerOutageItem[], stored: Array<[string, StoredPowerOutage]>, nowMinutes: number, minOutageMinutes: number) =>
  detectPowerOutageChanges(items, new Map(stored), { now: new Date(after(nowMinutes)), minOutageMinutes }).map(describeChange);

describe("detectPowerOutageChanges with the default (MinOutageMinutes 0): the spec's three events", () => {
  it.each<Row>([
    ['a new ongoing outage', [item('PO-1')], [], 1, ['NewOutage PO-1 estimate=null']],
    ['a new outage whose timeOff lies ahead of the clock, still at once', [item('PO-1')], [], -5, ['NewOutage PO-1 estimate=null']],
    ['an existing outage gets restored', [item('PO-1', { timeRestored: after(90) })], [record('PO-1')], 91, ['Restoration PO-1']],
    ['a first sighting already restored', [item('PO-2', { timeRestored: after(3) })], [], 5, ['RestoredAnnouncement PO-2']],
    [
      'a first sighting restored before its timeOff (bad clocks), still announced',
      [item('PO-2', { timeRestored: after(-1) })],
      [],
      5,
      ['RestoredAnnouncement PO-2'],
    ],
    ['an unchanged ongoing outage', [item('PO-1')], [record('PO-1')], 60, []],
    ['an unchanged restored outage', [item('PO-1', { timeRestored: after(90) })], [record('PO-1', { timeRestored: after(90) })], 120, []],
    ['a restored record that the feed shows ongoing again', [item('PO-1')], [record('PO-1', { timeRestored: after(90) })], 120, []],
    [
      'after a restart the stored state says what was seen',
      [item('PO-1'), item('PO-3', { timeRestored: after(9) })],
      [record('PO-1'), record('PO-3', { timeRestored: after(9) })],
      30,
      [],
    ],
    ['an outage that disappears from the feed', [], [record('PO-1')], 30, []],
    [
      'several at once, in feed order',
      [item('PO-5'), item('PO-1', { timeRestored: after(20) }), item('PO-6', { timeRestored: after(20) })],
      [record('PO-1')],
      30,
      ['NewOutage PO-5 estimate=null', 'Restoration PO-1', 'RestoredAnnouncement PO-6'],
    ],
  ])('%s', (_name, items, stored, now, expected) => {
    expect(detect(items, stored, now, 0)).toEqual(expected);
  });

  it('keeps the stored record on a change of a known outage', () => {
    const [change] = detectPowerOutageChanges([item('PO-1', { timeRestored: after(90) })], new Map([record('PO-1')]), {
      now: new Date(after(91)),
      minOutageMinutes: 0,
    });
    expect(change.existing).toEqual(record('PO-1')[1]);
    const [announced] = detectPowerOutageChanges([item('PO-2')], new Map([waiting('PO-2')]), { now: new Date(after(91)), minOutageMinutes: 10 });
    expect(announced.existing).toEqual(waiting('PO-2')[1]);
  });
});

describe('detectPowerOutageChanges with MinOutageMinutes 10: blips are never announced', () => {
  it.each<Row>([
    ['a new outage one millisecond short of the threshold waits', [item('PO-1')], [], JUST_UNDER, []],
    ['a new outage at exactly the threshold is announced', [item('PO-1')], [], 10, ['NewOutage PO-1 estimate=null']],
    ['a first sighting already past the threshold is announced', [item('PO-1')], [], 45, ['NewOutage PO-1 estimate=null']],
    ['a new outage whose timeOff lies ahead of the clock waits', [item('PO-1')], [], -5, []],
    ['a waiting outage, one millisecond short, still waits', [item('PO-1')], [waiting('PO-1')], JUST_UNDER, []],
    ['a waiting outage at the threshold (after a restart too: only the store counts)', [item('PO-1')], [waiting('PO-1')], 10, ['NewOutage PO-1 estimate=null']],
    ['a blip restored one millisecond short, first seen restored', [item('PO-1', { timeRestored: after(JUST_UNDER) })], [], 30, []],
    ['an outage restored at exactly the threshold, first seen restored', [item('PO-1', { timeRestored: after(10) })], [], 30, ['RestoredAnnouncement PO-1']],
    ['a waiting blip restored short of the threshold, polled long after', [item('PO-1', { timeRestored: after(3) })], [waiting('PO-1')], 60, []],
    ['a waiting blip restored one millisecond short', [item('PO-1', { timeRestored: after(JUST_UNDER) })], [waiting('PO-1')], 11, []],
    [
      'a waiting outage restored at exactly the threshold, before any poll announced it',
      [item('PO-1', { timeRestored: after(10) })],
      [waiting('PO-1')],
      12,
      ['RestoredAnnouncement PO-1'],
    ],
    ['an announced outage gets restored', [item('PO-1', { timeRestored: after(20) })], [record('PO-1')], 21, ['Restoration PO-1']],
    ['a recorded blip is never restored to anyone', [item('PO-1', { timeRestored: after(3) })], [waiting('PO-1', { timeRestored: after(3) })], 60, []],
    ['an announced outage, unchanged', [item('PO-1')], [record('PO-1')], 60, []],
  ])('%s', (_name, items, stored, now, expected) => {
    expect(detect(items, stored, now, 10)).toEqual(expected);
  });
});

describe('detectPowerOutageChanges: estimated restoration', () => {
  const E1 = '2026-11-22T12:00:00+05:30'; // 240 minutes after OFF
  const E2 = '2026-11-22T13:30:00+05:30'; // 330 minutes after OFF
  const NOW = 60;
  it.each<Row>([
    ['a NewOutage shows the estimate', [item('PO-1', { estimatedRestoration: E1 })], [], NOW, [`NewOutage PO-1 estimate=${E1}`]],
    ['a NewOutage shows an estimate of exactly now', [item('PO-1', { estimatedRestoration: after(NOW) })], [], NOW, [`NewOutage PO-1 estimate=${after(NOW)}`]],
    ['a NewOutage does not show an estimate already past', [item('PO-1', { estimatedRestoration: after(NOW - 1) })], [], NOW, ['NewOutage PO-1 estimate=null']],
    ['the same estimate again', [item('PO-1', { estimatedRestoration: E1 })], [record('PO-1', { estimatedRestoration: E1 })], NOW, []],
    [
      'the same instant written with another offset',
      [item('PO-1', { estimatedRestoration: '2026-11-22T06:30:00Z' })],
      [record('PO-1', { estimatedRestoration: E1 })],
      NOW,
      [],
    ],
    [
      'no estimate, still none (null and absent alike)',
      [item('PO-1', { estimatedRestoration: null }), item('PO-2')],
      [record('PO-1'), record('PO-2')],
      NOW,
      [],
    ],
    ['a first estimate', [item('PO-1', { estimatedRestoration: E1 })], [record('PO-1')], NOW, [`EstimateUpdated PO-1 estimate=${E1} n=1`]],
    [
      'a changed estimate counts on from the stored n',
      [item('PO-1', { estimatedRestoration: E2 })],
      [record('PO-1', { estimatedRestoration: E1, estimateChanges: 2 })],
      NOW,
      [`EstimateUpdated PO-1 estimate=${E2} n=3`],
    ],
    [
      'a return to an earlier estimate is news too',
      [item('PO-1', { estimatedRestoration: E1 })],
      [record('PO-1', { estimatedRestoration: E2, estimateChanges: 1 })],
      NOW,
      [`EstimateUpdated PO-1 estimate=${E1} n=2`],
    ],
    [
      'a removed estimate (null) is announced as withdrawn',
      [item('PO-1', { estimatedRestoration: null })],
      [record('PO-1', { estimatedRestoration: E1, estimateChanges: 1 })],
      NOW,
      ['EstimateUpdated PO-1 estimate=null n=2'],
    ],
    [
      'a removed estimate (field gone) is announced as withdrawn',
      [item('PO-1')],
      [record('PO-1', { estimatedRestoration: E1 })],
      NOW,
      ['EstimateUpdated PO-1 estimate=null n=1'],
    ],
    [
      'an estimate moved earlier than now is not announced',
      [item('PO-1', { estimatedRestoration: after(NOW - 1) })],
      [record('PO-1', { estimatedRestoration: E1 })],
      NOW,
      [],
    ],
    [
      'an estimate moved to exactly now is announced',
      [item('PO-1', { estimatedRestoration: after(NOW) })],
      [record('PO-1', { estimatedRestoration: E1 })],
      NOW,
      [`EstimateUpdated PO-1 estimate=${after(NOW)} n=1`],
    ],
    [
      'a change before the announcement is not counted (still waiting)',
      [item('PO-1', { estimatedRestoration: E2 })],
      [waiting('PO-1', { estimatedRestoration: E1 })],
      5,
      [],
    ],
    [
      'the announcing poll shows the estimate of the moment, as no change',
      [item('PO-1', { estimatedRestoration: E2 })],
      [waiting('PO-1', { estimatedRestoration: E1 })],
      10,
      [`NewOutage PO-1 estimate=${E2}`],
    ],
    [
      'a change on the restoring poll gives the Restoration only',
      [item('PO-1', { estimatedRestoration: E2, timeRestored: after(NOW) })],
      [record('PO-1', { estimatedRestoration: E1 })],
      NOW,
      ['Restoration PO-1'],
    ],
    [
      'a change on a restored record gives nothing',
      [item('PO-1', { estimatedRestoration: E2, timeRestored: after(30) })],
      [record('PO-1', { estimatedRestoration: E1, timeRestored: after(30) })],
      NOW,
      [],
    ],
  ])('%s', (_name, items, stored, now, expected) => {
    expect(detect(items, stored, now, 10)).toEqual(expected);
  });
});
