import { describe, expect, it } from 'vitest';
import { checkFeedAnswer } from '../../core/plugin-api/index.ts';
import { powerOutageAnswer } from '../../plugins/utility-power-outages/feed-schema.ts';
import { scheduledOutageAnswer } from '../../plugins/utility-scheduled-outages/feed-schema.ts';
import { placeReaches } from '../../core/places/index.ts';
import { searchAddresses } from '../address-search/address-search.ts';
import { areaShape, SAMPLE_TOWNS, townCentre } from './area-shapes.ts';
import { describeChanges, localDatePlus, scriptedFeedAt } from './scripted-day.ts';

const startedAt = new Date('2026-11-22T22:30:00.000Z');
const state = (seconds: number) => scriptedFeedAt(seconds, startedAt, 'Asia/Colombo');
const ids = (seconds: number) => state(seconds).powerOutages.map((o) => `${o.id}${o.timeRestored ? ' restored' : ''}`);

describe('the scripted day of the sample feed', () => {
  it.each([
    [0, []],
    [2.9, []],
    [3, ['PO-1001']],
    [32, ['PO-1001']],
    [33, ['PO-1001 restored']],
    [119, ['PO-1001 restored']],
    [120, ['PO-1001 restored', 'PO-1002']],
    [165, ['PO-1001 restored', 'PO-1002 restored']],
    [240, ['PO-1001 restored', 'PO-1002 restored', 'PO-1003']],
  ])('power outages after %s s: %j', (seconds, expected) => {
    expect(ids(seconds)).toEqual(expected);
  });

  it('puts the first outage in the feed within 10 s and restores it about 30 s later', () => {
    const [first] = state(10).powerOutages;
    expect(first).toMatchObject({ id: 'PO-1001', timeRestored: null, timeOff: '2026-11-22T22:30:03.000Z' });
    expect(state(40).powerOutages[0].timeRestored).toBe('2026-11-22T22:30:33.000Z');
  });

  it('keeps a new outage coming every couple of minutes, and only the latest 12', () => {
    const day = state(6 * 3600);
    expect(day.powerOutages).toHaveLength(12);
    expect(day.powerOutages.at(-1)!.id).toBe(`PO-${1001 + 180}`);
    expect(new Set(day.powerOutages.map((o) => o.id)).size).toBe(12);
  });

  it('schedules an outage for tomorrow in the local zone, then changes and cancels the next', () => {
    // 22:30 UTC is 04:00 on the 23rd in Colombo: tomorrow there is the 24th.
    expect(state(0).scheduledOutages).toEqual([expect.objectContaining({ id: 'SO-2001', date: '2026-11-24', end: '13:00', status: 'scheduled' })]);
    expect(state(150).scheduledOutages.map((o) => [o.id, o.date, o.end, o.status])).toEqual([
      ['SO-2001', '2026-11-24', '15:00', 'scheduled'],
      ['SO-2002', '2026-11-25', '16:00', 'scheduled'],
    ]);
    expect(state(300).scheduledOutages[1].status).toBe('cancelled');
  });

  it('answers what the feed API promises, at every step', () => {
    for (const seconds of [0, 3, 33, 60, 150, 300, 3600]) {
      const { powerOutages, scheduledOutages } = state(seconds);
      // Every item passes: none is left out.
      expect(checkFeedAnswer(powerOutageAnswer, { outages: powerOutages })).toEqual({ ok: true, value: { items: powerOutages, rejected: [] } });
      expect(checkFeedAnswer(scheduledOutageAnswer, { outages: scheduledOutages })).toEqual({ ok: true, value: { items: scheduledOutages, rejected: [] } });
    }
  });

  it.each([
    ['UTC', 0, '2026-11-22'],
    ['UTC', 1, '2026-11-23'],
    ['Asia/Colombo', 1, '2026-11-24'],
    ['America/Los_Angeles', 1, '2026-11-23'],
    ['UTC', 9, '2026-12-01'],
  ])('localDatePlus in %s plus %s day(s) is %s', (zone, days, expected) => {
    expect(localDatePlus(startedAt, zone, days)).toBe(expected);
  });

  it('describes each change once, in words', () => {
    expect(describeChanges(state(0), state(3))).toEqual(['PO-1001: power outage in Kandy, Peradeniya (feeder F12)']);
    expect(describeChanges(state(3), state(33))).toEqual(['PO-1001: power restored in Kandy, Peradeniya (feeder F12)']);
    expect(describeChanges(state(33), state(34))).toEqual([]);
    expect(describeChanges(state(0), state(60))).toEqual([
      'PO-1001: power outage in Kandy, Peradeniya (feeder F12), already restored',
      'SO-2002: scheduled outage in Kandy, Ampitiya on 2026-11-25 10:00-16:00',
    ]);
    expect(describeChanges(state(149), state(150))).toEqual(['SO-2001: scheduled outage changed to Gampola on 2026-11-24 09:00-15:00']);
    expect(describeChanges(state(299), state(300))).toEqual(['SO-2002: scheduled outage cancelled']);
    expect(describeChanges({ powerOutages: [], scheduledOutages: [] }, state(0))).toEqual(['SO-2001: scheduled outage in Gampola on 2026-11-24 09:00-13:00']);
  });
});

describe("the sample feed's shapes", () => {
  it('gives every item the shape of its towns, which the feed check keeps, and a point in a town lies in its shape', () => {
    const { powerOutages, scheduledOutages } = scriptedFeedAt(6 * 120, startedAt, 'Asia/Colombo');
    for (const item of [...powerOutages, ...scheduledOutages]) expect(item.geometry).not.toBeNull();
    expect(powerOutages[0]!.geometry!.type).toBe('MultiPolygon'); // Kandy and Peradeniya
    const checked = checkFeedAnswer(powerOutageAnswer, { outages: powerOutages });
    expect(checked.ok && checked.value.rejected).toEqual([]);
    for (const town of SAMPLE_TOWNS)
      expect(placeReaches({ lat: townCentre(town)![0], lon: townCentre(town)![1], radiusMeters: 0 }, areaShape([town])!)).toBe(true);
  });

  it("finds the demo's addresses by every word asked, in any case", () => {
    expect(searchAddresses('temple kandy').map((place) => place.name)).toEqual(['Temple of the Tooth, Sri Dalada Veediya, Kandy']);
    expect(searchAddresses('RAILWAY')).toHaveLength(2);
    expect(searchAddresses('nowhere')).toEqual([]);
    expect(searchAddresses('  ')).toEqual([]);
  });
});
