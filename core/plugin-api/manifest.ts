import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import type { Static, TObject, TSchema } from 'typebox';
import type { CoreSettings } from './core-settings.ts';
import type { CallerAuth, ConfirmationPort, LanePort, LedgerAccess, OngoingPort, StillOutPort, SubscriptionAccess } from './core-ports.ts';
import type { DeliveryTarget } from './delivery-types.ts';
import type { FeedMonitorSpec } from './feed-monitor.ts';
import type { PluginMetrics } from './metrics-types.ts';
import type { NotificationEvent, NotificationFeedDefinition, NotificationRenderer, OngoingItem, TellVerdict } from './feed-types.ts';
import type { NotificationPipeline } from './pipeline-types.ts';
import type { QueuePort } from './queue-types.ts';
import type { FeedPublicViews } from './public-views.ts';
import type { FeedCatalogPort, FeedPresentation } from './feed-presentation.ts';
import type { WorkerDefinition } from './worker-types.ts';
import type { ConfirmationWords, DestinationSpec } from './target-presentation.ts';

export type { CoreSettings };

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

/**
 * What core hands every plugin when it wires it: its own config, the few
 * core settings plugins read, a knex for its OWN tables (never core's: a test
 * fails when a plugin's SQL names one), a logger, caller auth for its
 * routes, the clock, and its metrics. Nothing else of core is reachable
 * from a plugin's routes or workers.
 */
export interface PluginContextBase<S extends ConfigSections = ConfigSections> {
  readonly pluginId: string;
  readonly config: SectionsConfig<S>;
  /** The few core settings a plugin reads: PublicBaseUrl, NODE_ENV, Retention. */
  readonly coreConfig: CoreSettings;
  readonly db: Knex;
  readonly log: FastifyBaseLogger;
  readonly auth: CallerAuth;
  readonly now: () => Date;
  /** Series the plugin adds to /metrics (a gauge of its own rows, read when scraped). */
  readonly metrics: PluginMetrics;
  /** The installed feeds as people see them: display names, event types in words, time zones. */
  readonly feeds: FeedCatalogPort;
}

/** A feed plugin's context: ProcessNotificationEvents is its only way to deliver (announcements). */
export interface FeedPluginContext<S extends ConfigSections = ConfigSections> extends PluginContextBase<S> {
  readonly pipeline: NotificationPipeline;
}

/** A delivery plugin's context: the ports of core it needs, and nothing of the pipeline. */
export interface DeliveryPluginContext<S extends ConfigSections = ConfigSections> extends PluginContextBase<S> {
  /** Every topic and prefix the installed plugins declare (the push server ACL follows it). */
  readonly topicAllowlist: TopicAllowlist;
  readonly subscriptions: SubscriptionAccess;
  readonly ledger: LedgerAccess;
  /** The lease-and-retry mechanism, for a target with a queue of its own (the email outbox). */
  readonly queues: QueuePort;
  /** What the feeds say is going on now for some subscriptions (an SMS STATUS reply). */
  readonly ongoing: OngoingPort;
  /** The plugin's delivery lane (its rate and pause), for sends it makes outside the ledger. */
  readonly lane: LanePort;
  /** Reports that an item told as ended has not (an SMS reply OUT to a restoration). */
  readonly stillOut: StillOutPort;
  /** Confirmations of urgent alerts: a key pressed in a call, a YES reply (API version 5). */
  readonly confirmations: ConfirmationPort;
}

export type PluginContext<S extends ConfigSections = ConfigSections> = FeedPluginContext<S> | DeliveryPluginContext<S>;

/** What every plugin manifest declares, feed or target. */
export interface PluginBase<S extends ConfigSections, C extends PluginContextBase<S>> {
  /** Equals the plugin's folder name. */
  readonly id: string;
  /** The plugin API version it was written for (PLUGIN_API_VERSION then). Without it: 1. */
  readonly apiVersion?: number;
  readonly description?: string;
  readonly config: S;
  /**
   * Absolute folder of the plugin's knex migrations (file names unique
   * across plugins). Default: the plugin folder's `migrations`, when it has one.
   */
  readonly migrationsDir?: string;
  readonly topics?: TopicEntries;
  /**
   * Checks what a JSON schema cannot (an IANA time zone): each problem
   * names its key (`ScheduledOutages__TimeZone: …`) and stops the start,
   * enabled or not, like any bad configuration value.
   */
  checkConfig?(config: SectionsConfig<S>): readonly string[];
  /** @deprecated NPDEP005: return `workers` from setup(context). */
  workers?(context: C): readonly WorkerDefinition[];
  /** @deprecated NPDEP005: return `routes` from setup(context). */
  routes?(app: FastifyInstance, context: C): Promise<void> | void;
}

/**
 * What a plugin's `setup(context)` gives core to wire. Setup runs once per
 * start, before the service listens, so its parts share what they need
 * (a pooled client, a queue) through the closure, and nothing else holds it.
 */
export interface PluginParts {
  /** Its routes, registered in an encapsulated scope of their own. */
  readonly routes?: (app: FastifyInstance) => Promise<void> | void;
  /** Its workers, run on instances that run workers. */
  readonly workers?: readonly WorkerDefinition[];
}

/** A delivery plugin's parts: its target besides. */
export interface DeliveryPluginParts extends PluginParts {
  /** Without one the plugin declares its config and topics only: its provider cannot be chosen yet. */
  readonly target?: DeliveryTarget;
}

/** A system subscription a feed offers, for the env template. */
export interface SystemSubscriptionOffer {
  /** `<Name>` in NotificationPipeline__SystemSubscriptions__<Name>__*. */
  readonly name: string;
  readonly pushTopic: string;
}

export interface FeedPluginManifest<S extends ConfigSections = ConfigSections> extends PluginBase<S, FeedPluginContext<S>> {
  readonly kind: 'feed';
  /** Builds the plugin's routes and workers from its context, once per start. */
  setup?(context: FeedPluginContext<S>): PluginParts | Promise<PluginParts>;
  readonly feed: NotificationFeedDefinition;
  /**
   * The feed's monitor: its endpoint, parser, store and pure detector and
   * mapper. Core registers it as the worker `<id>.monitor` when its
   * settings say Enabled (and the master switch is on), and runs its steps.
   */
  // biome-ignore lint/suspicious/noExplicitAny: the monitor's item, state and change types are its own: unknown would refuse its functions
  readonly monitor: FeedMonitorSpec<SectionsConfig<S>, any, any, any>;
  readonly renderers: readonly NotificationRenderer<SectionsConfig<S>>[];
  readonly systemSubscription?: SystemSubscriptionOffer;
  /**
   * Event types coalesced within a subscription's cooldown: several of one
   * source item give one delivery of the latest.
   */
  readonly coalescedEventTypes?: readonly string[];
  /**
   * @deprecated NPDEP003: core now supersedes a subscriber's waiting
   * deliveries of an item with any newer event of it, whatever the types
   * (latest state only); this map changes nothing. Remove it.
   */
  readonly supersedes?: Readonly<Record<string, readonly string[]>>;
  /** Public read-only views: a calendar of planned items, CAP alerts (and the Atom index of them) of its events. */
  readonly publicViews?: FeedPublicViews<SectionsConfig<S>>;
  /** What people see of the feed: a label and a hint per event type (the subscribe page, emails), the email accent. */
  readonly presentation?: FeedPresentation;
  /** Event types that go out at once even inside a subscriber's quiet hours (a new outage); the others wait for them to end. */
  readonly urgentEventTypes?: readonly string[];
  /**
   * Event types that end their source item (a restoration): they always
   * go, even to a subscriber whose budget of messages for the item
   * (`NotificationPipeline__MaxMessagesPerItem` in 24 hours) is spent.
   */
  readonly endEventTypes?: readonly string[];
  /**
   * Whether a subscriber is told an event of an item they were told of
   * before: a pure policy of the feed (no I/O, no clock), given the event,
   * the last event of the same item that subscriber was told (undefined:
   * none) and the feed's config. Core asks it when it claims an event that
   * follows earlier ones of its item; a row it refuses is recorded
   * `skipped`, with the reason, and never sent. Without it every event is told.
   */
  worthTelling?(event: NotificationEvent, lastTold: NotificationEvent | undefined, config: SectionsConfig<S>): TellVerdict;
  /**
   * Event types whose message asks the subscriber to say if it is wrong
   * ("still without power?" on a restoration): core adds, in the
   * subscriber's language, a link to /still-out (or, on a target whose
   * subscribers reply, "reply OUT") and records one report per subscription
   * and item for the console. The words are the feed's `stillOut.link`
   * (with `{url}`) and `stillOut.reply` in its locales, core's own without them.
   */
  readonly stillOutEventTypes?: readonly string[];
  /** The IANA zone the feed's times are in, from its config (`config.PowerOutages.TimeZone`); UTC without it. */
  timeZone?(config: SectionsConfig<S>): string;
  /**
   * What is going on now (outages not yet over), each as the event a
   * subscription's filter is matched against and one line for people.
   * Read from the feed's own store when someone asks (an SMS STATUS reply).
   */
  ongoing?(context: FeedPluginContext<S>, language?: string): Promise<readonly OngoingItem[]>;
  /**
   * An operator's announcement as this feed's event (a fresh source key
   * each call): the operator console previews whom it reaches with the
   * pipeline's matching, and sends it once confirmed. Without it the feed
   * takes no announcements from the console.
   */
  announcement?(input: AnnouncementInput): NotificationEvent;
}

/** What an operator writes in the console's announcement form. */
export interface AnnouncementInput {
  readonly title: string;
  readonly message: string;
  /** The areas it is about (the `locationKeywords` field's values); empty: every area. */
  readonly areas: readonly string[];
  /** The feeders it is about (the `feeders` field's values). */
  readonly feeders: readonly string[];
  /** The values the operator gave per filter field of the feed, by field id (a transit feed's `route`); absent for none. */
  readonly fields?: Readonly<Record<string, readonly string[]>>;
}

export interface DeliveryPluginManifest<S extends ConfigSections = ConfigSections> extends PluginBase<S, DeliveryPluginContext<S>> {
  readonly kind: 'delivery';
  /** Value of `delivery.provider`: Push, Email. */
  readonly provider: string;
  /** What people call it (`Push notification`, `Email`): the subscribe page's choice, the providers list. Default: the provider value. */
  readonly displayName?: string;
  /** The destination a subscriber gives or the target makes: the providers list and the subscribe page's field. */
  readonly destination?: DestinationSpec;
  /** For a target whose subscriptions start inactive: what the subscribe page says while one waits for confirmation. */
  readonly confirmation?: ConfirmationWords;
  /** For a target with subscribe links: the pages' button to one (`Open in the ntfy app`). Default: Open the subscribe link. */
  readonly subscribeLinkLabel?: string;
  /**
   * Properties a create request's `delivery` object may carry for this
   * provider besides `provider` and `destination` (a browser's push
   * subscription): each optional in the request schema, the target checks
   * them in `prepareDestination` (`context.delivery`).
   */
  readonly deliveryProperties?: Readonly<Record<string, TSchema>>;
  /** Fields the create answer holds for this provider (`webhookSecret`, shown once), as `onSubscriptionsCreated` answers them. */
  readonly createdProperties?: Readonly<Record<string, TSchema>>;
  /**
   * The rate its peer takes, in messages a second across every instance
   * (an SMS long code: 1), used unless NotificationPipeline__Rates__<Provider>
   * sets one. Absent or 0: no rate of its own.
   */
  readonly defaultRatePerSecond?: number;
  /** Builds the plugin's target, routes and workers from its context, once per start. */
  setup?(context: DeliveryPluginContext<S>): DeliveryPluginParts | Promise<DeliveryPluginParts>;
  /** @deprecated NPDEP005: return `target` from setup(context). */
  createTarget?(context: DeliveryPluginContext<S>): DeliveryTarget | Promise<DeliveryTarget>;
}

// biome-ignore lint/suspicious/noExplicitAny: a manifest of any settings: unknown would refuse its functions of them
export type PluginManifest = FeedPluginManifest<any> | DeliveryPluginManifest<any>;

/** Declares a feed plugin. Inert: nothing runs until core wires it. */
export function defineFeedPlugin<S extends ConfigSections>(manifest: Omit<FeedPluginManifest<S>, 'kind'>): FeedPluginManifest<S> {
  return Object.freeze({ ...manifest, kind: 'feed' as const });
}

/** Declares a delivery plugin. Inert: nothing runs until core wires it. */
export function defineDeliveryPlugin<S extends ConfigSections>(manifest: Omit<DeliveryPluginManifest<S>, 'kind'>): DeliveryPluginManifest<S> {
  return Object.freeze({ ...manifest, kind: 'delivery' as const });
}
