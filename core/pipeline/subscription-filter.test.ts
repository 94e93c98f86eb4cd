import { describe, expect, it } from 'vitest';
import type { NotificationEvent } from '../plugin-api/feed-types.ts';
import { compileFilter, type SubscriptionFilter } from './subscription-filter.ts';

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
  ])('%s', (_name, filter, candidate, expected) => {
    expect(compileFilter(filter)(candidate)).toBe(expected);
  });
});
