import { describe, expect, it } from 'vitest';
import { defineDeliveryPlugin, defineFeedMonitor, defineFeedPlugin, defineRenderer, Type } from '../plugin-api/index.ts';
import { validateManifest } from './validate-manifest.ts';

const renderer = defineRenderer('a.b', ['Happened'], () => ({ title: 't', body: 'b', sequenceId: 's', tags: [], priority: 'Default' }));
const goodFeed = defineFeedPlugin({
  id: 'good-feed',
  config: { GoodFeed: Type.Object({ Enabled: Type.Boolean({ default: false }) }) },
  feed: { id: 'a.b', displayName: 'A B', eventTypes: ['Happened'], filterableFields: ['Area'] },
  monitor: defineFeedMonitor({
    settings: () => ({ Enabled: true, PollingIntervalSeconds: 60, FeedTimeoutSeconds: 15 }),
    path: 'things',
    parse: () => ({ ok: true, value: [] }),
    store: { load: async () => null, persist: async () => undefined },
    detect: () => [],
    map: () => [],
  }),
  renderers: [renderer],
});

const profile = { msgType: 'Alert', event: 'Something happened', urgency: 'Future', severity: 'Minor', certainty: 'Likely' } as const;
const content = () => ({ headline: 'h', description: 'd', areas: [] });

describe('validateManifest', () => {
  it('accepts a complete feed and delivery manifest', () => {
    expect(validateManifest('good-feed', goodFeed)).toEqual([]);
    expect(
      validateManifest('good-feed', {
        ...goodFeed,
        publicViews: {
          alerts: { profiles: { Happened: profile }, content },
          calendar: { load: async () => ({ timeZone: 'UTC', entries: [], lastModified: null }) },
        },
      }),
    ).toEqual([]);
    expect(validateManifest('my-target', defineDeliveryPlugin({ id: 'my-target', provider: 'Pigeon', config: {} }))).toEqual([]);
  });

  it("checks a target's confirmation code path: a path of this service that names {publicId}", () => {
    const target = (codeUrl: string) =>
      validateManifest(
        'my-target',
        defineDeliveryPlugin({ id: 'my-target', provider: 'Pigeon', config: {}, confirmation: { heading: 'H', text: 'T', codeUrl } }),
      );
    expect(target('/api/notification-subscriptions/{publicId}/verify-code')).toEqual([]);
    for (const bad of [
      'https://elsewhere.example/{publicId}',
      '//elsewhere.example/{publicId}',
      '/\\elsewhere.example/{publicId}',
      '/api/verify',
      '/api/{publicId}/x y',
    ])
      expect(target(bad)).toContainEqual(expect.stringMatching(/confirmation\.codeUrl must be a path of this service that names \{publicId\}/));
  });

  it.each([
    ['no manifest export', undefined, /does not export `manifest`/],
    ['folder mismatch', goodFeed, /must equal the folder name/, 'other-folder'],
    ['undotted feed id', { ...goodFeed, feed: { ...goodFeed.feed, id: 'plain' } }, /feed.id must be a dotted id/],
    ['missing renderer', { ...goodFeed, renderers: [] }, /no renderer for event type Happened/],
    ['double renderer', { ...goodFeed, renderers: [renderer, renderer] }, /2 renderers claim event type Happened/],
    ['unknown filter field', { ...goodFeed, feed: { ...goodFeed.feed, filterableFields: ['Colour'] } }, /filterable field "Colour"/],
    ['filter fields not a list', { ...goodFeed, feed: { ...goodFeed.feed, filterFields: 'route' } }, /feed.filterFields must be a list/],
    [
      'a filter field id not camelCase',
      { ...goodFeed, feed: { ...goodFeed.feed, filterFields: [{ id: 'Route-No', label: 'Routes', match: 'equals' }] } },
      /filterFields\[0\]\.id must be camelCase/,
    ],
    [
      'a filter field twice',
      {
        ...goodFeed,
        feed: {
          ...goodFeed.feed,
          filterFields: [
            { id: 'route', label: 'Routes', match: 'equals' },
            { id: 'route', label: 'Lines', match: 'equals' },
          ],
        },
      },
      /"route" is declared twice/,
    ],
    [
      'a filter field label of two lines',
      { ...goodFeed, feed: { ...goodFeed.feed, filterFields: [{ id: 'route', label: 'Routes\nX-Evil: 1', match: 'equals' }] } },
      /filterFields\[0\]\.label must be one line/,
    ],
    [
      'a filter field matched some other way',
      { ...goodFeed, feed: { ...goodFeed.feed, filterFields: [{ id: 'route', label: 'Routes', match: 'regex' }] } },
      /match must be one of equals, contains/,
    ],
    [
      'an older field matched another way',
      { ...goodFeed, feed: { ...goodFeed.feed, filterFields: [{ id: 'feeders', label: 'Lines', match: 'contains' }] } },
      /feeders is matched as equals/,
    ],
    ['no monitor', { ...goodFeed, monitor: undefined }, /monitor is required/],
    ['a monitor not made with defineFeedMonitor', { ...goodFeed, monitor: { ...goodFeed.monitor } }, /defineFeedMonitor/],
    ['a coalesced type the feed does not emit', { ...goodFeed, coalescedEventTypes: ['Updated'] }, /coalescedEventTypes: Updated is not an event type/],
    ['a superseding type the feed does not emit', { ...goodFeed, supersedes: { Restored: ['Happened'] } }, /supersedes: Restored is not an event type/],
    ['a superseded type the feed does not emit', { ...goodFeed, supersedes: { Happened: ['Estimated'] } }, /supersedes: Estimated is not an event type/],
    ['bad topic', { ...goodFeed, topics: { topics: ['has space'] } }, /topic entry "has space"/],
    ['bad section schema', { ...goodFeed, config: { Bad: 'string' } }, /config section "Bad" must be an object schema/],
    ['unknown kind', { ...goodFeed, kind: 'source' }, /kind must be "feed" or "delivery"/],
    [
      'a CAP profile of a type the feed does not emit',
      { ...goodFeed, publicViews: { alerts: { profiles: { Other: profile }, content } } },
      /profiles.Other: not an event type of the feed/,
    ],
    [
      'a CAP urgency CAP does not define',
      { ...goodFeed, publicViews: { alerts: { profiles: { Happened: { ...profile, urgency: 'Soon' } }, content } } },
      /profiles.Happened.urgency must be one of Immediate, Expected/,
    ],
    [
      'a CAP profile without its event',
      { ...goodFeed, publicViews: { alerts: { profiles: { Happened: { ...profile, event: ' ' } }, content } } },
      /profiles.Happened.event is required/,
    ],
    ['a calendar without load', { ...goodFeed, publicViews: { calendar: {} } }, /publicViews.calendar needs load/],
  ])('rejects %s', (_name, manifest, problem, folder = 'good-feed') => {
    expect(validateManifest(folder, manifest).join('; ')).toMatch(problem);
  });
});
