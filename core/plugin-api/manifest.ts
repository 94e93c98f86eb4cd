import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import type { Static, TObject } from 'typebox';
import type { CoreConfig } from '../config/core-config-schema.ts';
import type { CallerAuth, LedgerAccess, SubscriptionAccess } from './core-services.ts';
import type { DeliveryTarget } from './delivery-types.ts';
import type { EndpointChecker } from './endpoint-types.ts';
import type { NotificationFeedDefinition, NotificationRenderer } from './feed-types.ts';
import type { NotificationPipeline } from './pipeline-types.ts';
import type { WorkerDefinition } from './worker-types.ts';

/** Config sections a plugin owns, by path (`PowerOutages`, `Notifications:Push`). */
export type ConfigSections = Readonly<Record<string, TObject>>;
export type SectionsConfig<S extends ConfigSections> = { readonly [K in keyof S]: Readonly<Static<S[K]>> };

/** Topic-allowlist entries a plugin declares: its system topics and generated-topic prefixes. */
export interface TopicEntries {
  readonly topics?: readonly string[];
  readonly prefixes?: readonly string[];
}

export interface TopicAllowlist {
  readonly topics: readonly string[];
  readonly prefixes: readonly string[];
}

/** What core hands a plugin when it wires it. */
export interface PluginContext<S extends ConfigSections = ConfigSections> {
  readonly pluginId: string;
  readonly config: SectionsConfig<S>;
  readonly coreConfig: Readonly<CoreConfig>;
  readonly db: Knex;
  readonly log: FastifyBaseLogger;
  /** Every topic and prefix the installed plugins declare (the push server ACL follows it). */
  readonly topicAllowlist: TopicAllowlist;
  /** ProcessNotificationEvents: the only way a monitor delivers. */
  readonly pipeline: NotificationPipeline;
  readonly subscriptions: SubscriptionAccess;
  readonly ledger: LedgerAccess;
  readonly auth: CallerAuth;
  /** Conditional GETs that skip unchanged answers (the spec's endpoint checker). */
  readonly endpoints: EndpointChecker;
  readonly now: () => Date;
}

interface PluginBase<S extends ConfigSections> {
  /** Equals the plugin's folder name. */
  readonly id: string;
  readonly description?: string;
  readonly config: S;
  /** Absolute folder of the plugin's knex migrations (file names unique across plugins). */
  readonly migrationsDir?: string;
  readonly topics?: TopicEntries;
  /**
   * Checks what a JSON schema cannot (an IANA time zone): each problem
   * names its key (`ScheduledOutages__TimeZone: …`) and stops the start,
   * enabled or not, like any bad configuration value.
   */
  checkConfig?(config: SectionsConfig<S>): readonly string[];
  workers?(context: PluginContext<S>): readonly WorkerDefinition[];
  routes?(app: FastifyInstance, context: PluginContext<S>): Promise<void> | void;
}

/** A system subscription a feed offers, for the env template. */
export interface SystemSubscriptionOffer {
  /** `<Name>` in NotificationPipeline__SystemSubscriptions__<Name>__*. */
  readonly name: string;
  readonly pushTopic: string;
}

export interface FeedPluginManifest<S extends ConfigSections = ConfigSections> extends PluginBase<S> {
  readonly kind: 'feed';
  readonly feed: NotificationFeedDefinition;
  /** The feed's own switch (`<Feed>:Enabled`); the master switch is applied by core. */
  enabled(config: SectionsConfig<S>): boolean;
  /** The source-owned change policy: pure, `(items, existing, now) => changes`. */
  readonly detector: (...args: never[]) => unknown;
  readonly renderers: readonly NotificationRenderer<SectionsConfig<S>>[];
  readonly systemSubscription?: SystemSubscriptionOffer;
  /**
   * Event types coalesced within a subscription's cooldown: several of one
   * source item give one delivery of the latest (contracts §6: Updated).
   */
  readonly coalescedEventTypes?: readonly string[];
}

export interface DeliveryPluginManifest<S extends ConfigSections = ConfigSections> extends PluginBase<S> {
  readonly kind: 'delivery';
  /** Value of `delivery.provider`: Push, Email. */
  readonly provider: string;
  /**
   * Builds the target at start. A delivery plugin without one declares its
   * config and topics only: its provider cannot be chosen yet.
   */
  createTarget?(context: PluginContext<S>): DeliveryTarget | Promise<DeliveryTarget>;
}

export type PluginManifest = FeedPluginManifest<any> | DeliveryPluginManifest<any>;

/** Declares a feed plugin. Inert: nothing runs until core wires it. */
export function defineFeedPlugin<S extends ConfigSections>(manifest: Omit<FeedPluginManifest<S>, 'kind'>): FeedPluginManifest<S> {
  return Object.freeze({ ...manifest, kind: 'feed' as const });
}

/** Declares a delivery plugin. Inert: nothing runs until core wires it. */
export function defineDeliveryPlugin<S extends ConfigSections>(
  manifest: Omit<DeliveryPluginManifest<S>, 'kind'>,
): DeliveryPluginManifest<S> {
  return Object.freeze({ ...manifest, kind: 'delivery' as const });
}
