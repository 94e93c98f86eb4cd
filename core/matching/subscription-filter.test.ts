import { describe, expect, it } from 'vitest';
import type { FilterMatch, NotificationEvent } from '../plugin-api/feed-types.ts';
import { compileFilter, FilterCache, type SubscriptionFilter } from './subscription-filter.ts';

const event = (fields: Record<string, string>, eventType = 'NewOutage'): NotificationEvent => ({
  feedId: 'utility.power-outages',
  eventType,
  sourceKey: 'PO-1',
  fields,
  sourcePayload: {},
});
const F = 'utility.power-outages';
const outage = event({ feeder: 'F12', areas: 'Kandy, Peradeniya' });

describe('compileFilter', () => {
  it.each<[string, SubscriptionFilter | null, NotificationEvent, boolean]>([
    ['empty filter matches all', {}, outage, true],
    ['null filter matches all', null, outage, true],
    ['empty lists set no criterion', { feeders: [], locationKeywords: [], keywords: [], eventTypes: [] }, outage, true],
    ['feeder equal, case-insensitive, trimmed', { feeders: [' f12 '] }, outage, true],
    ['feeder differs', { feeders: ['F1'] }, outage, false],
    ['feeder is not a substring match', { feeders: ['F1'] }, event({ feeder: 'F12' }), false],
    ['feeder among comma-separated feeders', { feeders: ['f7'] }, event({ feeders: 'F3, F7' }), true],
    ['feeder any-of', { feeders: ['X', 'F12'] }, outage, true],
    ['feeder criterion with no feeder field', { feeders: ['F12'] }, event({ area: 'Kandy' }), false],
    ['location substring of areas', { locationKeywords: ['peradeni'] }, outage, true],
    ['location substring of area', { locationKeywords: ['KAND'] }, event({ area: 'Kandy' }), true],
    ['location not in feeder', { locationKeywords: ['F12'] }, outage, false],
    ['location missing fields', { locationKeywords: ['Kandy'] }, event({}), false],
    ['keyword in any field', { keywords: ['f12'] }, outage, true],
    ['keyword in areas', { keywords: ['deniya'] }, outage, true],
    ['keyword absent', { keywords: ['Colombo'] }, outage, false],
    ['event type listed', { eventTypes: ['Restoration', 'NewOutage'] }, outage, true],
    ['event type not listed', { eventTypes: ['Restoration'] }, outage, false],
    ['event type is exact', { eventTypes: ['newoutage'] }, outage, false],
    ['AND across criteria: all match', { feeders: ['F12'], locationKeywords: ['Kandy'], eventTypes: ['NewOutage'] }, outage, true],
    ['AND across criteria: one fails', { feeders: ['F12'], locationKeywords: ['Galle'] }, outage, false],
    ['blank entries are ignored', { feeders: ['  '] }, outage, true],
    ['event type trimmed', { eventTypes: [' NewOutage '] }, outage, true],
    ['location any-of: one of two matches', { locationKeywords: ['Galle', 'Kandy'] }, outage, true],
    ['keyword any-of: one of two matches', { keywords: ['Colombo', 'peradeniya'] }, outage, true],
    ['a keyword never spans two fields', { keywords: ['f12kandy'] }, outage, false],
  ])('%s', (_name, filter, candidate, expected) => {
    expect(compileFilter(filter)(candidate)).toBe(expected);
  });
});

describe("compileFilter with a feed's own fields", () => {
  const disruption = event({ route: '12, 138', cause: 'Signal failure at Fort' });
  const matchOf = (id: string): FilterMatch => (id === 'route' ? 'equals' : 'contains');
  it.each<[string, SubscriptionFilter, NotificationEvent, boolean]>([
    ["equals: one of the event's values", { fields: { route: ['138'] } }, disruption, true],
    ['equals: case-insensitive and trimmed', { fields: { route: [' 12 '] } }, disruption, true],
    ['equals: never a part of a value', { fields: { route: ['1'] } }, disruption, false],
    ["equals: any of the subscriber's values", { fields: { route: ['7', '12'] } }, disruption, true],
    ['contains: a part of the text', { fields: { cause: ['signal'] } }, disruption, true],
    ['contains: absent', { fields: { cause: ['flood'] } }, disruption, false],
    ['an event without the field matches no value', { fields: { route: ['12'] } }, event({ cause: 'x' }), false],
    ['every field set must match', { fields: { route: ['12'], cause: ['flood'] } }, disruption, false],
    ['with the three older properties too', { fields: { route: ['12'] }, keywords: ['fort'] }, disruption, true],
    ['an empty list sets no criterion', { fields: { route: [] } }, event({}), true],
  ])('%s', (_name, filter, candidate, expected) => {
    expect(compileFilter(filter, matchOf)(candidate)).toBe(expected);
  });
});

describe('compileFilter with places', () => {
  // A block of Kandy, 1.1 km across; its outage's areas name Kandy.
  const geometry = {
    type: 'Polygon' as const,
    coordinates: [
      [
        [80.63, 7.29],
        [80.64, 7.29],
        [80.64, 7.3],
        [80.63, 7.3],
        [80.63, 7.29],
      ] as Array<[number, number]>,
    ],
  };
  const shaped = { ...outage, geometry };
  const home = { name: 'Home', lat: 7.295, lon: 80.635 };
  const across = { lat: 7.2895, lon: 80.635 }; // about 56 m south of the edge
  const town = { lat: 7.35, lon: 80.635 }; // about 5.5 km north
  it.each<[string, SubscriptionFilter, NotificationEvent, boolean]>([
    ['a place inside the shape', { places: [home] }, shaped, true],
    ['a place within its radius, outside the shape', { places: [across] }, shaped, true],
    ['a place beyond its radius', { places: [{ ...across, radiusMeters: 20 }] }, shaped, false],
    ['any of the places', { places: [town, across] }, shaped, true],
    ['no place matches an event without a shape', { places: [home] }, outage, false],
    ['places OR locationKeywords: the name matches, the place does not', { places: [town], locationKeywords: ['Kandy'] }, shaped, true],
    ['places OR locationKeywords: the place matches, the name does not', { places: [home], locationKeywords: ['Galle'] }, shaped, true],
    ['places OR locationKeywords: neither', { places: [town], locationKeywords: ['Galle'] }, shaped, false],
    ['places AND feeders: the feeder fails', { places: [home], feeders: ['F1'] }, shaped, false],
    ['places AND event types: both hold', { places: [home], eventTypes: ['NewOutage'] }, shaped, true],
    ['places AND keywords: the keyword fails', { places: [home], keywords: ['Colombo'] }, shaped, false],
  ])('%s', (_name, filter, candidate, expected) => {
    expect(compileFilter(filter)(candidate)).toBe(expected);
  });
});

describe('FilterCache', () => {
  it('compiles a filter once and hands the same predicate to every subscription with that filter', () => {
    const cache = new FilterCache();
    const first = cache.get(F, { feeders: ['F12'] });
    expect(cache.get(F, { feeders: ['F12'] })).toBe(first);
    expect(cache.get(F, { feeders: ['F1'] })).not.toBe(first);
    expect(cache.get(F, null)(outage)).toBe(true);
    expect(first(outage)).toBe(true);
  });

  it('takes a stored filter as its JSON text, parsing a text once', () => {
    const cache = new FilterCache();
    const byText = cache.ofText(F, '{"feeders": ["F12"]}');
    expect(cache.ofText(F, '{"feeders": ["F12"]}')).toBe(byText);
    expect(byText(outage)).toBe(true);
    expect(cache.ofText(F, '{"feeders": ["F9"]}')(outage)).toBe(false);
    expect(cache.ofText(F, null)(outage)).toBe(true);
  });

  it("keeps each feed's filters apart: a feed's own fields match as that feed says", () => {
    const cache = new FilterCache((feedId, fieldId) => (feedId === 'transit.disruptions' && fieldId === 'route' ? 'equals' : 'contains'));
    const onRoute = event({ route: '12, 138' });
    expect(cache.ofText('transit.disruptions', '{"fields":{"route":["1"]}}')(onRoute)).toBe(false);
    expect(cache.ofText('other.feed', '{"fields":{"route":["1"]}}')(onRoute)).toBe(true);
  });

  it('stays bounded: past 10,000 distinct filters new ones are compiled, not kept', () => {
    const cache = new FilterCache();
    for (let i = 0; i < 10_000; i += 1) cache.get(F, { keywords: [`k${i}`] });
    const late = cache.get(F, { keywords: ['late'] });
    expect(cache.get(F, { keywords: ['late'] })).not.toBe(late);
    expect(cache.get(F, { keywords: ['k1'] })).toBe(cache.get(F, { keywords: ['k1'] }));
  });
});
