import { describe, expect, it } from 'vitest';
import { defineDeliveryPlugin, defineFeedPlugin, defineRenderer, Type } from '../plugin-api/index.ts';
import { validateManifest } from './validate-manifest.ts';

const renderer = defineRenderer('a.b', ['Happened'], () => ({ title: 't', body: 'b', sequenceId: 's', tags: [], priority: 'Default' }));
const goodFeed = defineFeedPlugin({
  id: 'good-feed',
  config: { GoodFeed: Type.Object({ Enabled: Type.Boolean({ default: false }) }) },
  feed: { id: 'a.b', displayName: 'A B', eventTypes: ['Happened'], filterableFields: ['Area'] },
  enabled: () => true,
  detector: () => [],
  renderers: [renderer],
});

describe('validateManifest', () => {
  it('accepts a complete feed and delivery manifest', () => {
    expect(validateManifest('good-feed', goodFeed)).toEqual([]);
    expect(validateManifest('my-target', defineDeliveryPlugin({ id: 'my-target', provider: 'Pigeon', config: {} }))).toEqual([]);
  });

  it.each([
    ['no manifest export', undefined, /does not export `manifest`/],
    ['folder mismatch', goodFeed, /must equal the folder name/, 'other-folder'],
    ['undotted feed id', { ...goodFeed, feed: { ...goodFeed.feed, id: 'plain' } }, /feed.id must be a dotted id/],
    ['missing renderer', { ...goodFeed, renderers: [] }, /no renderer for event type Happened/],
    ['double renderer', { ...goodFeed, renderers: [renderer, renderer] }, /2 renderers claim event type Happened/],
    ['unknown filter field', { ...goodFeed, feed: { ...goodFeed.feed, filterableFields: ['Colour'] } }, /filterable field "Colour"/],
    ['no detector', { ...goodFeed, detector: undefined }, /detector/],
    ['bad topic', { ...goodFeed, topics: { topics: ['has space'] } }, /topic entry "has space"/],
    ['bad section schema', { ...goodFeed, config: { Bad: 'string' } }, /config section "Bad" must be an object schema/],
    ['unknown kind', { ...goodFeed, kind: 'source' }, /kind must be "feed" or "delivery"/],
  ])('rejects %s', (_name, manifest, problem, folder = 'good-feed') => {
    expect(validateManifest(folder, manifest).join('; ')).toMatch(problem);
  });
});
