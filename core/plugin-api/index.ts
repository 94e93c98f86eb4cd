/**
 * The public plugin API: the only module a plugin imports from core.
 */
export { default as Type } from 'typebox';
export type { Static, TObject, TSchema } from 'typebox';
export { Errors } from '../errors.ts';
export * from './feed-types.ts';
export type * from './delivery-types.ts';
export type * from './worker-types.ts';
export type * from './pipeline-types.ts';
export type * from './core-services.ts';
export type * from './endpoint-types.ts';
export { createValidator, type ValidationResult } from './validation.ts';
export { externalProviderRequest, pollJsonFeed, type JsonFeedPoll } from './json-feed.ts';
export {
  defineDeliveryPlugin,
  defineFeedPlugin,
  type ConfigSections,
  type DeliveryPluginManifest,
  type FeedPluginManifest,
  type PluginContext,
  type PluginManifest,
  type SectionsConfig,
  type SystemSubscriptionOffer,
  type TopicAllowlist,
  type TopicEntries,
} from './manifest.ts';
export { defineRenderer } from './renderer.ts';
export { backoffSeconds, type RetrySettings } from '../pipeline/retry-policy.ts';
