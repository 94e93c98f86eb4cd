/**
 * The plugin contract: what a plugin declares and what core hands it. Types,
 * the `define…` functions, the settings schema builder (typebox), the ports
 * and the coded errors; it imports nothing of core outside this folder
 * (test/architecture/plugin-contract.test.ts holds it so). It only grows: a
 * new member is optional, a removal waits for a deprecation code.
 */
export { default as Type } from 'typebox';
export type { Static, TObject, TSchema } from 'typebox';
export { Errors, type CodedError, type CodedErrorClass } from './errors.ts';
export { PLUGIN_API_VERSION } from './api-version.ts';
export * from './feed-types.ts';
export type * from './delivery-types.ts';
export type * from './worker-types.ts';
export type * from './pipeline-types.ts';
export type * from './core-ports.ts';
export type * from './queue-types.ts';
export type * from './metrics-types.ts';
export type * from './shape-types.ts';
export * from './public-views.ts';
export type { EventTypePresentation, FeedCatalogPort, FeedEntry, FeedInfo, FeedPresentation, ResolvedEventType } from './feed-presentation.ts';
export type { ConfirmationWords, DestinationSpec, ProviderInfo } from './target-presentation.ts';
export {
  defineFeedMonitor,
  type FeedMonitorRunContext,
  type FeedMonitorSettings,
  type FeedMonitorSpec,
  type FeedStepContext,
  type FeedStore,
} from './feed-monitor.ts';
export {
  defineFeedAnswer,
  FeedCount,
  FeedDate,
  FeedDateTime,
  FeedGeometry,
  FeedText,
  REJECT_REASONS,
  type CheckedAnswer,
  type FeedAnswer,
  type FeedAnswerSpec,
  type RejectedItem,
  type RejectReason,
} from './feed-answer.ts';
export {
  defineDeliveryPlugin,
  defineFeedPlugin,
  type AnnouncementInput,
  type ConfigSections,
  type CoreSettings,
  type DeliveryPluginContext,
  type DeliveryPluginManifest,
  type DeliveryPluginParts,
  type FeedPluginContext,
  type FeedPluginManifest,
  type PluginContext,
  type PluginContextBase,
  type PluginBase,
  type PluginManifest,
  type PluginParts,
  type SectionsConfig,
  type SystemSubscriptionOffer,
  type TopicAllowlist,
  type TopicEntries,
} from './manifest.ts';
export { defineRenderer } from './renderer.ts';
export type { MessageCatalog, Translate } from './messages.ts';
export type { ValidationResult } from './validation.ts';
