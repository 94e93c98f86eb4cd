import { describe, expectTypeOf, it } from 'vitest';
import type {
  DeliveryPluginManifest,
  DeliveryTarget,
  FeedMonitorSettings,
  FeedMonitorSpec,
  FeedPluginManifest,
  FilterFieldDefinition,
  NotificationEvent,
  NotificationFeedDefinition,
  NotificationRenderer,
  RenderedNotification,
} from '#plugin-api';

/** The keys a value of T must have (the others may be left out). */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/**
 * What a plugin must provide, pinned: the required members of every type a
 * plugin writes (its manifest, its target, its events, renderings and
 * settings) are exactly these. A new member of the contract must be
 * optional, so that a plugin written against an earlier version still
 * type-checks (the break of an earlier round: the feed settings gained a
 * required MaxAnswerBytes, and a plugin's test config literal no longer
 * compiled, which the name-only snapshot did not see). These assertions are
 * checked by the type check of `npm test` (tsc), not at run time.
 */
describe('the plugin API only grows: what a plugin must provide', () => {
  it("a feed plugin's manifest", () => {
    expectTypeOf<RequiredKeys<FeedPluginManifest>>().toEqualTypeOf<'id' | 'config' | 'kind' | 'feed' | 'monitor' | 'renderers'>();
    expectTypeOf<RequiredKeys<NotificationFeedDefinition>>().toEqualTypeOf<'id' | 'displayName' | 'eventTypes'>();
    expectTypeOf<RequiredKeys<FilterFieldDefinition>>().toEqualTypeOf<'id' | 'label' | 'match'>();
  });

  it("a feed's monitor and its settings", () => {
    expectTypeOf<RequiredKeys<FeedMonitorSpec<unknown>>>().toEqualTypeOf<'settings' | 'path' | 'store' | 'detect' | 'map'>();
    expectTypeOf<RequiredKeys<FeedMonitorSettings>>().toEqualTypeOf<'Enabled' | 'PollingIntervalSeconds' | 'FeedTimeoutSeconds'>();
    // A settings literal written for plugin API 2 (before MaxAnswerBytes and the per-feed source) still fits.
    expectTypeOf({ Enabled: true, PollingIntervalSeconds: 60, FeedTimeoutSeconds: 15 }).toExtend<FeedMonitorSettings>();
  });

  it('its events and renderings', () => {
    expectTypeOf<RequiredKeys<NotificationEvent>>().toEqualTypeOf<'feedId' | 'eventType' | 'sourceKey' | 'fields' | 'sourcePayload'>();
    expectTypeOf<RequiredKeys<NotificationRenderer>>().toEqualTypeOf<'eventTypes' | 'canRender' | 'render'>();
    expectTypeOf<RequiredKeys<RenderedNotification>>().toEqualTypeOf<'title' | 'body' | 'sequenceId' | 'tags' | 'priority'>();
  });

  it("a delivery plugin's manifest and its target", () => {
    expectTypeOf<RequiredKeys<DeliveryPluginManifest>>().toEqualTypeOf<'id' | 'config' | 'kind' | 'provider'>();
    expectTypeOf<RequiredKeys<DeliveryTarget>>().toEqualTypeOf<'provider' | 'prepareDestination' | 'subscribeUrl' | 'startsActive'>();
  });
});
