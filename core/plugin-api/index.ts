/**
 * The public plugin API: the only module a plugin imports from core.
 */
export { default as Type } from 'typebox';
export type { Static, TObject, TSchema } from 'typebox';
export { Errors } from '../errors.ts';
export { PLUGIN_API_VERSION } from './api-version.ts';
export { ErrorSchema, errorResponses, noContent, pageOrError, textResponse } from '../http/response-schemas.ts';
export * from './feed-types.ts';
export { createTranslator, DEFAULT_LOCALE, intlLocale, isLocale, loadMessages, LOCALES, type MessageCatalog, type Translate } from './messages.ts';
export type * from './delivery-types.ts';
export type * from './worker-types.ts';
export type * from './pipeline-types.ts';
export type * from './core-ports.ts';
export type * from './queue-types.ts';
export type * from './metrics-types.ts';
export * from './public-views.ts';
export {
  eventTypeWords,
  feedCatalogOf,
  type EventTypePresentation,
  type FeedCatalogPort,
  type FeedEntry,
  type FeedInfo,
  type FeedPresentation,
  type ResolvedEventType,
} from './feed-presentation.ts';
export type { ConfirmationWords, DestinationSpec, ProviderInfo } from './target-presentation.ts';
export { createValidator, type ValidationResult } from './validation.ts';
export { defineFeedMonitor, type FeedMonitorRunContext, type FeedMonitorSettings, type FeedMonitorSpec, type FeedStepContext, type FeedStore } from './feed-monitor.ts';
export { feedMonitorSettings, TimeZoneSetting } from './settings.ts';
export { itemStateStore, type ItemStates, type ItemStateStoreSpec } from './item-state-store.ts';
export { occurrenceKey, sequenceId } from './event-keys.ts';
export {
  defineFeedAnswer,
  FeedCount,
  FeedDate,
  FeedDateTime,
  FeedText,
  REJECT_REASONS,
  type CheckedAnswer,
  type FeedAnswer,
  type FeedAnswerSpec,
  type RejectedItem,
  type RejectReason,
} from './feed-answer.ts';
/** What core makes of an answer (which items pass, which are left out and why): for a feed plugin's own tests. */
export { checkAnswer as checkFeedAnswer } from '../feeds/answer-check.ts';
export {
  defineDeliveryPlugin,
  type AnnouncementInput,
  defineFeedPlugin,
  type ConfigSections,
  type CoreSettings,
  type DeliveryPluginContext,
  type DeliveryPluginManifest,
  type FeedPluginContext,
  type FeedPluginManifest,
  type PluginContext,
  type PluginContextBase,
  type PluginManifest,
  type SectionsConfig,
  type SystemSubscriptionOffer,
  type TopicAllowlist,
  type TopicEntries,
} from './manifest.ts';
export { defineRenderer } from './renderer.ts';
export { createPluginTestContext, type PluginTestContextOptions } from './test-kit.ts';
export { plainLines, singleLine, stripBidiControls, withoutControls } from './user-text.ts';
export { personPage, PERSON_PAGE_HEADERS, type PersonPage } from './person-page.ts';
export { formatClockTime, formatDateTime, formatLocalDate, localInstant, zoneName } from './time-format.ts';
export { backoffSeconds, type RetrySettings } from '../pipeline/delivery/retry-policy.ts';
export { drainInBatches } from '../retention/drain-in-batches.ts';
export { randomToken } from './random-token.ts';
export { checkOutboundUrl, isListedHost, isPublicAddress, publicOnlyLookup, type OutboundPolicy } from './outbound-url.ts';
export { createOutboundClient, type OutboundClient, type OutboundPost, type OutboundResult } from './outbound-client.ts';
export { Limiter } from './limiter.ts';
export { pgArray } from '../db/pg-array.ts';
export { insertInChunks, parameterChunks } from '../db/bulk-insert.ts';
