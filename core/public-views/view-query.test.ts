import { describe, expect, it } from 'vitest';
import { filterFromQuery, publicOrigin, queryOfFilter } from './view-query.ts';

describe('filterFromQuery', () => {
  it.each([
    ['nothing', {}, {}],
    ['areas as location keywords', { areas: 'Kandy, Gampola' }, { locationKeywords: ['Kandy', 'Gampola'] }],
    ['feeders', { feeders: 'F3,F9' }, { feeders: ['F3', 'F9'] }],
    ['empty values set no criterion', { areas: ' , ,', feeders: '' }, {}],
  ])('%s', (_name, query, filter) => {
    expect(filterFromQuery(query)).toEqual(filter);
    expect(filterFromQuery(JSON.parse(JSON.stringify(query)))).toEqual(filter);
  });

  it.each([
    ['a NUL', { areas: 'Kan\u0000dy' }, /querystring\/areas must not hold control characters/],
    ['a lone surrogate', { feeders: 'F\ud800' }, /querystring\/feeders must not hold control characters or lone surrogates/],
    ['51 values', { areas: Array.from({ length: 51 }, (_, i) => `a${i}`).join(',') }, /querystring\/areas must not list more than 50/],
    ['a value over 100 characters', { feeders: 'F'.repeat(101) }, /querystring\/feeders: "F{20}…" is longer than 100/],
  ])('refuses %s, naming the field', (_name, query, message) => {
    expect(() => filterFromQuery(query)).toThrow(message);
  });
});

describe('queryOfFilter and publicOrigin', () => {
  it('writes a filter back as a stable query, and builds links under PublicBaseUrl with or without a trailing slash or a path', () => {
    expect(queryOfFilter({ feeders: ['F3'], locationKeywords: ['Kandy', 'Gampola'] })).toBe('?areas=Kandy%2CGampola&feeders=F3');
    expect(queryOfFilter({})).toBe('');
    expect(publicOrigin('https://alerts.example.org:8443/outages/').url('/api/x')).toBe('https://alerts.example.org:8443/outages/api/x');
    expect(publicOrigin('https://alerts.example.org:8443/outages/').hostname).toBe('alerts.example.org');
  });
});
