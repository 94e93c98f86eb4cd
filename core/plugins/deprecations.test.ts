import { describe, expect, it } from 'vitest';
import { defineFeedAnswer, defineFeedMonitor, defineFeedPlugin, defineRenderer, PLUGIN_API_VERSION, Type } from '../plugin-api/index.ts';
import { DEPRECATIONS, deprecationsOf } from './deprecations.ts';
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
    expect(validateManifest('some-feed', feed({ apiVersion: 3 }))).toEqual([]);
    expect(deprecationsOf(feed({ apiVersion: 3 }))).toEqual([]);
  });

  it('a feed written before feeds had sources of their own is told it still polls the shared one, unless it says it shares it', () => {
    expect(deprecationsOf(feed({ apiVersion: 2 }))).toEqual([
      expect.stringMatching(
        /^NPDEP004: it was written before feeds had a source of their own: with no <Feed>__BaseUrl set, it polls ExternalProvider__BaseUrl/,
      ),
    ]);
    const sharing = { ...feed({ apiVersion: 2 }), monitor: { ...monitor('answer'), sharedSource: true } };
    expect(deprecationsOf(sharing as never)).toEqual([]);
  });

  it('one without apiVersion, checking answers with parse, still validates, and is told what to write instead', () => {
    const old = feed({ way: 'parse' });
    expect(validateManifest('some-feed', old)).toEqual([]);
    expect(deprecationsOf(old)).toEqual([
      expect.stringMatching(/^NPDEP001: it declares no apiVersion, so it is read as written for plugin API version 1; it works as before\./),
      expect.stringMatching(/^NPDEP002: its monitor checks answers with parse: .*Declare answer with defineFeedAnswer/),
      expect.stringMatching(/^NPDEP004: /),
    ]);
  });

  it('one that declares supersedes (core now supersedes any waiting delivery of an item) is told to remove it', () => {
    const old = { ...feed({ apiVersion: 3 }), supersedes: { Happened: ['Happened'] } };
    expect(validateManifest('some-feed', old)).toEqual([]);
    expect(deprecationsOf(old)).toEqual([expect.stringMatching(/^NPDEP003: its manifest declares supersedes, which core no longer needs/)]);
  });

  it('one that declares routes, workers or createTarget on its manifest is told to return them from setup(context); declaring both ways is refused', () => {
    const old = { ...feed({ apiVersion: 3 }), workers: () => [] };
    expect(validateManifest('some-feed', old)).toEqual([]);
    expect(deprecationsOf(old)).toEqual([
      expect.stringMatching(/^NPDEP005: it declares routes, workers or createTarget on its manifest.*Return them from one setup\(context\)/),
    ]);
    const today = { ...feed({ apiVersion: 3 }), setup: () => ({ workers: [] }) };
    expect(validateManifest('some-feed', today)).toEqual([]);
    expect(deprecationsOf(today)).toEqual([]);
    expect(validateManifest('some-feed', { ...today, routes: () => undefined })).toEqual([
      'setup(context) returns the routes, workers and target: declare routes there, not on the manifest too',
    ]);
    expect(validateManifest('some-feed', { ...today, setup: 'yes' })).toEqual(['setup must be a function']);
  });

  it('codes are never reused: each names one deprecation, in order', () => {
    const codes = Object.keys(DEPRECATIONS);
    expect(codes).toEqual(codes.map((_, index) => `NPDEP${String(index + 1).padStart(3, '0')}`));
  });

  it('one written for a later API stops the start, saying what to do', () => {
    const later = PLUGIN_API_VERSION + 1;
    expect(validateManifest('some-feed', feed({ apiVersion: later }))).toEqual([
      `it was written for plugin API version ${later}, and this service offers version ${PLUGIN_API_VERSION}: update the service, or install a version of the plugin written for API version ${PLUGIN_API_VERSION} or earlier`,
    ]);
    expect(validateManifest('some-feed', feed({ apiVersion: 0 }))).toEqual(['apiVersion must be a whole number from 1']);
  });
});
