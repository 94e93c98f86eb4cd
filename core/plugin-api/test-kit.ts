import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import { pino } from 'pino';
import type { CoreConfig } from '../config/core-config-schema.ts';
import { composeConfigSchema, pickSections } from '../config/compose-schema.ts';
import { loadConfig } from '../config/load-config.ts';
import type { CallerAuth, ConfirmationPort, LanePort, LedgerAccess, OngoingPort, StillOutPort, SubscriptionAccess } from './core-ports.ts';
import type { PluginMetrics } from './metrics-types.ts';
import type { FeedCatalogPort } from './feed-presentation.ts';
import type { ConfigSections, DeliveryPluginContext, FeedPluginContext, SectionsConfig, TopicAllowlist } from './manifest.ts';
import type { NotificationPipeline } from './pipeline-types.ts';
import type { QueuePort } from './queue-types.ts';
import { publicCoreSettings } from './plugin-core-settings.ts';

export interface PluginTestContextOptions {
  /** Settings as environment entries (`Notifications__Push__BaseUrl`), validated and defaulted like at start. */
  readonly env?: Readonly<Record<string, string>>;
  readonly log?: FastifyBaseLogger;
  /** Log lines land here when no `log` is given. */
  readonly logs?: string[];
  readonly now?: () => Date;
  readonly db?: Knex;
  readonly topicAllowlist?: TopicAllowlist;
  readonly pipeline?: NotificationPipeline;
  readonly subscriptions?: SubscriptionAccess;
  readonly ledger?: LedgerAccess;
  /** The plugin's lane; absent: one with no rate that is never paused. */
  readonly lane?: LanePort;
  readonly queues?: QueuePort;
  readonly ongoing?: OngoingPort;
  readonly stillOut?: StillOutPort;
  readonly confirmations?: ConfirmationPort;
  readonly auth?: CallerAuth;
  /** Where the plugin's gauges go; by default they are accepted and never read. */
  readonly metrics?: PluginMetrics;
  /** The installed feeds as people see them; by default none. */
  readonly feeds?: FeedCatalogPort;
}

/** A port the test did not pass: using it is a test's mistake, said plainly. */
function missing<T extends object>(name: string): T {
  const fail = (use: string) => {
    throw new Error(`this plugin test context has no ${name}: pass it in createPluginTestContext's options (used: ${use})`);
  };
  return new Proxy(function unavailable() {}, {
    get: (_target, property) => (property === 'then' ? undefined : fail(String(property))),
    apply: () => fail('a call'),
  }) as unknown as T;
}

/**
 * A plugin's context as core would build it, for unit tests of a plugin
 * without the whole service: its config sections validated and defaulted
 * from `env` exactly as at start, a logger, a clock, and whichever ports
 * the test passes (using one it did not pass fails with a clear
 * message). Serves feed and delivery plugins alike.
 */
export function createPluginTestContext<S extends ConfigSections>(
  plugin: { readonly id: string; readonly config: S },
  options: PluginTestContextOptions = {},
): FeedPluginContext<S> & DeliveryPluginContext<S> {
  const schema = composeConfigSchema([{ owner: `plugin ${plugin.id}`, sections: plugin.config }]);
  const loaded = loadConfig({ ...options.env }, schema);
  const config = pickSections(plugin.config, loaded.config);
  const logs = options.logs;
  const log = options.log ?? (pino({ level: 'debug' }, { write: (line: string) => void logs?.push(line) }) as FastifyBaseLogger);
  return {
    pluginId: plugin.id,
    config: config as SectionsConfig<S>,
    coreConfig: publicCoreSettings(loaded.config as unknown as CoreConfig),
    db: options.db ?? missing<Knex>('db'),
    log,
    auth: options.auth ?? missing<CallerAuth>('auth'),
    now: options.now ?? (() => new Date()),
    pipeline: options.pipeline ?? missing<NotificationPipeline>('pipeline'),
    topicAllowlist: options.topicAllowlist ?? { topics: [], prefixes: [] },
    subscriptions: options.subscriptions ?? missing<SubscriptionAccess>('subscriptions'),
    ledger: options.ledger ?? missing<LedgerAccess>('ledger'),
    queues: options.queues ?? missing<QueuePort>('queues'),
    ongoing: options.ongoing ?? missing<OngoingPort>('ongoing'),
    stillOut: options.stillOut ?? missing<StillOutPort>('stillOut'),
    confirmations: options.confirmations ?? missing<ConfirmationPort>('confirmations'),
    lane: options.lane ?? { pausedForMs: () => 0, pause: async () => undefined, nextSlot: async (signal) => !signal?.aborted },
    metrics: options.metrics ?? { gauge: () => undefined },
    feeds: options.feeds ?? { get: () => undefined, all: () => [] },
  };
}
