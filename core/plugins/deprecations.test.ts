import { describe, expect, it } from 'vitest';
import { defineFeedAnswer, defineFeedMonitor, defineFeedPlugin, defineRenderer, Type } from '../plugin-api/index.ts';
import { deprecationsOf } from './deprecations.ts';
import { validateManifest } from './validate-manifest.ts';

const monitor = (way: 'answer' | 'parse') =>
  defineFeedMonitor({
    settings: () => ({ Enabled: false, PollingIntervalSeconds: 60, FeedTimeoutSeconds: 5 }),
    path: 'x',
    ...(way === 'answer'
      ? { answer: defineFeedAnswer({ list: 'items', item: Type.Object({ id: Type.String() }) }) }
      : { parse: (data: unknown) => ({ ok: true as const, value: data as { id: string }[] }) }),
    store: { load: async () => undefined, persist: async () => undefined },
    detect: () => [],
    map: () => [],
  });

const feed = (extra: { apiVersion?: number; way?: 'answer' | 'parse' } = {}) =>
  defineFeedPlugin({
    id: 'some-feed',
    ...(extra.apiVersion === undefined ? {} : { apiVersion: extra.apiVersion }),
    config: {},
    feed: { id: 'some.feed', displayName: 'Some feed', eventTypes: ['Happened'], filterableFields: [] },
    monitor: monitor(extra.way ?? 'answer'),
    renderers: [defineRenderer('some.feed', ['Happened'], () => ({ title: 't', body: 'b', sequenceId: 's', tags: [], priority: 'Default' }))],
  });

describe('plugins written for an earlier plugin API', () => {
  it('a manifest of today says nothing', () => {
    expect(validateManifest('some-feed', feed({ apiVersion: 2 }))).toEqual([]);
    expect(deprecationsOf(feed({ apiVersion: 2 }))).toEqual([]);
  });

  it('one without apiVersion, checking answers with parse, still validates, and is told what to write instead', () => {
    const old = feed({ way: 'parse' });
    expect(validateManifest('some-feed', old)).toEqual([]);
    expect(deprecationsOf(old)).toEqual([
      expect.stringMatching(/^it declares no apiVersion, so it is read as written for plugin API version 1; it works as before\./),
      expect.stringMatching(/^its monitor checks answers with parse: .*Declare answer with defineFeedAnswer/),
    ]);
  });

  it('one written for a later API stops the start, saying what to do', () => {
    expect(validateManifest('some-feed', feed({ apiVersion: 3 }))).toEqual([
      'it was written for plugin API version 3, and this service offers version 2: update the service, or install a version of the plugin written for API version 2 or earlier',
    ]);
    expect(validateManifest('some-feed', feed({ apiVersion: 0 }))).toEqual(['apiVersion must be a whole number from 1']);
  });
});
