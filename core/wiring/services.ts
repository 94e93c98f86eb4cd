import type { Confirmations } from '../confirmation/confirmations.ts';
import type { FeedSource } from '../feeds/feed-source.ts';
import type { StillOutTypes } from '../still-out/index.ts';
import type { Knex } from 'knex';
import type { CoreConfig } from '../config/core-config-schema.ts';
import type { Database } from '../db/database.ts';
import type { EndpointChecker } from '../feeds/endpoint-types.ts';
import type { CallerAuth, LedgerAccess, SubscriptionAccess } from '../plugin-api/core-ports.ts';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import type { FeedMonitorSettings } from '../plugin-api/feed-monitor.ts';
import type { FeedCatalogPort } from '../plugin-api/feed-presentation.ts';
import type { CoreSettings, DeliveryPluginContext, FeedPluginContext } from '../plugin-api/manifest.ts';
import type { NotificationPipeline } from '../plugin-api/pipeline-types.ts';
import type { DeliveryLanes, LaneControl } from '../delivery/index.ts';
import type { FeedRendering } from '../pipeline/feed-rendering.ts';
import type { FanoutRules } from '../pipeline/fanout/claim-page.ts';
import type { FanoutLanes } from '../pipeline/fanout/fanout-lanes.ts';
import type { NotificationPipelineService } from '../pipeline/notification-pipeline.ts';
import type { PluginRegistry } from '../plugins/registry.ts';
import type { WiredParts } from '../plugins/plugin-parts.ts';
import type { QueueRegistry } from '../queue/queue-registry.ts';
import type { Wakeups } from '../queue/wakeups.ts';
import type { WorkerScheduler } from '../scheduler/worker-scheduler.ts';
import type { SubscriptionService } from '../subscriptions/subscription-service.ts';
import type { Shutdown } from './shutdown.ts';
import type { LeaseOwner } from '../queue/lease-owner.ts';
import type { PollReport } from '../feeds/poll-report.ts';
import type { MonitoredFeed } from '../feed-health/feed-health-view.ts';
import type { DeliveryObserver } from '../observability/delivery-observer.ts';
import type { ServiceMetrics } from '../observability/service-metrics.ts';

/** What buildApp knows before Fastify exists: the plugins, the validated config, the clock. */
export interface Platform {
  readonly registry: PluginRegistry;
  readonly config: Readonly<CoreConfig>;
  /** The same without its secrets: what plugins get as `coreConfig`. */
  readonly coreSettings: CoreSettings;
  readonly fullConfig: Readonly<Record<string, unknown>>;
  readonly now: () => Date;
  readonly instanceId: string;
  /** Who holds this run's leases: every lease token names this instance and this run. */
  readonly leaseOwner: LeaseOwner;
  /** false: no scheduled workers (the migrate and template commands, some tests). */
  readonly runWorkers: boolean;
  /** A plugin's own config sections out of the full tree. */
  sectionsOf(pluginId: string): Readonly<Record<string, unknown>>;
  /** The config sections of the plugin that declares a feed, by feed id ({} for core's own feeds): what its renderers and views get. */
  feedConfig(feedId: string): Readonly<Record<string, unknown>>;
  /** Each feed plugin's monitor settings (Enabled, PollingIntervalSeconds…) by plugin id, picked once from its sections. */
  readonly monitors: ReadonlyMap<string, FeedMonitorSettings>;
  /** Where each feed plugin polls and with which key, by plugin id (its own BaseUrl and ApiKey, the shipped feeds falling back to ExternalProvider's). */
  readonly sources: ReadonlyMap<string, FeedSource>;
  /** The installed feeds as people see them (every plugin's `feeds` port). */
  readonly feeds: FeedCatalogPort;
}

/** External wiring: the database (migrated), the scheduler, wake-ups, and the ordered shutdown. */
export interface External {
  readonly database: Database;
  readonly db: Knex;
  readonly workers: WorkerScheduler;
  readonly wakeups: Wakeups;
  readonly shutdown: Shutdown;
  readonly readiness: { migrated: boolean; pluginsLoaded: boolean };
}

/** What watches the service (observability.ts makes it). */
export interface Observability {
  readonly metrics: ServiceMetrics;
  /** Where delivery outcomes are recorded (the dispatcher, the ledger port) tells it. */
  readonly deliveries: DeliveryObserver;
}

/** What an operator reads and does (operations.ts makes it). */
export interface Operations {
  /** The feed monitors' onPoll: counts, logs and records every poll (feed health, its alerts). */
  readonly recordPoll: (report: PollReport) => Promise<void>;
  /** The installed feeds as feed health shows them (the admin view, the console). */
  readonly monitoredFeeds: readonly MonitoredFeed[];
  /** Providers whose targets deliver directly (their failed deliveries can be requeued in the ledger). */
  readonly directProviders: readonly string[];
  /** Each lane's rate (0: none), by provider. */
  readonly rates: ReadonlyMap<string, number>;
}

/** Core's own services, before any plugin is wired. */
export interface CoreServices {
  readonly auth: CallerAuth;
  readonly endpoints: EndpointChecker;
  readonly subscriptionAccess: SubscriptionAccess;
  readonly ledgerAccess: LedgerAccess;
  readonly queues: QueueRegistry;
}

export interface Delivery {
  readonly targets: ReadonlyMap<string, DeliveryTarget>;
  readonly contexts: ReadonlyMap<string, DeliveryPluginContext>;
  /** Each delivery plugin's routes, workers and target, by plugin id. */
  readonly parts: ReadonlyMap<string, WiredParts>;
  /** One lane per target: the deliveries of each provider, apart. */
  readonly lanes: DeliveryLanes;
  /** Each lane's fan-out after a hand-over's first page. */
  readonly fanouts: FanoutLanes;
  /** Each lane's rate and pause. */
  readonly controls: ReadonlyMap<string, LaneControl>;
  readonly rules: FanoutRules;
  /** Events as each subscriber reads them (their language and zone). */
  readonly rendering: FeedRendering;
  /** "Still out?": the key of its links and the feeds' types that ask it. */
  readonly stillOut: { readonly key: string; readonly types: StillOutTypes };
  /** Confirmations of urgent alerts: the lanes ask, the pages, targets and console answer. */
  readonly confirmations: Confirmations;
}

export interface Pipeline {
  readonly pipeline: NotificationPipelineService;
  /** ProcessNotificationEvents as feeds, monitors, the API and feed health call it (the events are counted). */
  readonly handOver: NotificationPipeline;
  readonly subscriptions: SubscriptionService;
  readonly feedContexts: ReadonlyMap<string, FeedPluginContext>;
  /** Each feed plugin's routes and workers, by plugin id. */
  readonly feedParts: ReadonlyMap<string, WiredParts>;
}

/** The fan-outs and the lanes, driven together. */
export interface DeliveryDriver {
  /** Waits for the fan-outs under way, then for every lane's batches, then drains what is left. */
  settle(): Promise<void>;
  /** Drains every lane now (waits for the passes it starts). */
  drain(): Promise<void>;
  wake(): void;
}

/** The read-only view tests, benchmarks and the CLI use. */
export interface AppServices {
  readonly config: Readonly<CoreConfig>;
  readonly fullConfig: Readonly<Record<string, unknown>>;
  readonly registry: PluginRegistry;
  readonly database: Database;
  readonly workers: WorkerScheduler;
  readonly targets: ReadonlyMap<string, DeliveryTarget>;
  readonly pipeline: NotificationPipelineService;
  /** Everything that delivers, as tests wait for it: `settle()` returns once every fan-out is claimed and every due delivery handled. */
  readonly dispatcher: DeliveryDriver;
  readonly lanes: DeliveryLanes;
  readonly queues: QueueRegistry;
  readonly instanceId: string;
  /**
   * Gives back at once the deliveries and fan-outs an earlier run of this
   * instance still held (killed mid-batch), and wakes the queues. Call once
   * this run owns its name: it listens on its port.
   */
  takeBackEarlierRuns(): Promise<{ deliveries: number; fanouts: number }>;
  readonly now: () => Date;
  /** The installed feeds as people see them (what plugins get as `feeds`). */
  readonly feeds: FeedCatalogPort;
  /** What the feed monitors report each poll to (feed health). */
  readonly recordPoll: Operations['recordPoll'];
}

/** What the last steps (the console, the workers) read: every step's output before them. */
export interface WiredBefore {
  readonly platform: Platform;
  readonly external: External;
  readonly coreServices: CoreServices;
  readonly delivery: Delivery;
  readonly pipeline: Pipeline;
  readonly operations: Operations;
}
