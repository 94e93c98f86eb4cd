import { describe, expect, it } from 'vitest';
import type { NotificationFeedDefinition } from '../plugin-api/feed-types.ts';
import { catalogFieldsOf, filterFieldsOf, filterMatchOf, resolveFilterFields } from './filter-fields.ts';

const transit: NotificationFeedDefinition = {
  id: 'transit.disruptions',
  displayName: 'Disruptions',
  eventTypes: ['Disruption'],
  filterFields: [
    { id: 'route', label: 'Routes', hint: 'Comma-separated route numbers.', example: '12, 138', match: 'equals' },
    { id: 'keywords', label: 'Words', match: 'contains' },
  ],
};
const older: NotificationFeedDefinition = { id: 'utility.older', displayName: 'Older', eventTypes: ['Happened'], filterableFields: ['Keywords', 'Feeder'] };

describe('filter fields', () => {
  it('are what a feed declares, in its order', () => {
    expect(filterFieldsOf(transit).map((field) => field.id)).toEqual(['route', 'keywords']);
  });

  it("of a feed that names core's fields (plugin API 1 or 2) are those, in core's order and words", () => {
    expect(filterFieldsOf(older)).toEqual([
      { id: 'feeders', label: 'Feeders', hint: 'Comma-separated codes. Leave empty for every one.', match: 'equals' },
      { id: 'keywords', label: 'Keywords', hint: 'Comma-separated words to look for anywhere in an alert. Leave empty to skip.', match: 'contains' },
    ]);
    expect(filterFieldsOf({ ...older, filterableFields: undefined })).toEqual([]);
  });

  it('say where their values go: the three older ids are properties of their own, any other is fields.<id>', () => {
    expect(resolveFilterFields(filterFieldsOf(transit)).map((field) => field.property)).toEqual(['fields.route', 'keywords']);
  });

  it("take their words from the feed's locales where it has them, else its declared ones", () => {
    const t = (key: string) => (({ 'filter.route.label': 'මාර්ග' }) as Record<string, string>)[key] ?? key;
    const [route, keywords] = resolveFilterFields(filterFieldsOf(transit), t);
    expect(route).toEqual({ id: 'route', property: 'fields.route', label: 'මාර්ග', hint: 'Comma-separated route numbers.', example: '12, 138', match: 'equals' });
    expect(keywords!.label).toBe('Words');
    expect(keywords!.example).toBe('');
  });

  it('give older clients the catalog fields among them', () => {
    expect(catalogFieldsOf(filterFieldsOf(transit))).toEqual(['Keywords']);
    expect(catalogFieldsOf(filterFieldsOf(older))).toEqual(['Feeder', 'Keywords']);
  });

  it('are matched as each feed says, contains for a field a feed does not declare', () => {
    const matchOf = filterMatchOf([transit, older]);
    expect(matchOf('transit.disruptions', 'route')).toBe('equals');
    expect(matchOf('utility.older', 'route')).toBe('contains');
    expect(matchOf('unknown.feed', 'route')).toBe('contains');
  });
});
