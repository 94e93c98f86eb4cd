import { describe, expect, it } from 'vitest';
import type { NotificationEvent } from '../../plugin-api/feed-types.ts';
import { compileFilter, FILTER_FIELD_OF, FilterCache, type SubscriptionFilter } from './subscription-filter.ts';

const event = (fields: Record<string, string>, eventType = 'NewOutage'): NotificationEvent => ({
  feedId: 'utility.power-outages',
  eventType,
  sourceKey: 'PO-1',
  fields,
  sourcePayload: {},
});
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

describe('filter properties and catalog fields', () => {
  it('feeders needs Feeder, locationKeywords needs Area, keywords needs Keywords; eventTypes needs none', () => {
    expect(FILTER_FIELD_OF).toEqual({ feeders: 'Feeder', locationKeywords: 'Area', keywords: 'Keywords', eventTypes: null });
  });
});

describe('FilterCache', () => {
  it('compiles a filter once and hands the same predicate to every subscription with that filter', () => {
    const cache = new FilterCache();
    const first = cache.get({ feeders: ['F12'] });
    expect(cache.get({ feeders: ['F12'] })).toBe(first);
    expect(cache.get({ feeders: ['F1'] })).not.toBe(first);
    expect(cache.get(null)(outage)).toBe(true);
    expect(first(outage)).toBe(true);
  });

  it('takes a stored filter as its JSON text, parsing a text once', () => {
    const cache = new FilterCache();
    const byText = cache.ofText('{"feeders": ["F12"]}');
    expect(cache.ofText('{"feeders": ["F12"]}')).toBe(byText);
    expect(byText(outage)).toBe(true);
    expect(cache.ofText('{"feeders": ["F9"]}')(outage)).toBe(false);
    expect(cache.ofText(null)(outage)).toBe(true);
  });

  it('stays bounded: past 10,000 distinct filters new ones are compiled, not kept', () => {
    const cache = new FilterCache();
    for (let i = 0; i < 10_000; i += 1) cache.get({ keywords: [`k${i}`] });
    const late = cache.get({ keywords: ['late'] });
    expect(cache.get({ keywords: ['late'] })).not.toBe(late);
    expect(cache.get({ keywords: ['k1'] })).toBe(cache.get({ keywords: ['k1'] }));
  });
});
