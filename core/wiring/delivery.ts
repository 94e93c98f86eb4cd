import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import type { DeliveryPluginContext, SectionsConfig } from '../plugin-api/manifest.ts';
import type { PluginQueueDefinition } from '../plugin-api/queue-types.ts';
import { createOngoingPort } from '../feeds/ongoing-port.ts';
import { DeliveryDispatcher } from '../pipeline/delivery/delivery-dispatcher.ts';
import { FanoutExpander } from '../pipeline/fanout/fanout-expander.ts';
import { FeedRendering } from '../pipeline/feed-rendering.ts';
import type { FanoutRules } from '../pipeline/fanout/claim-page.ts';
import { DEFAULT_RETRY } from '../pipeline/delivery/retry-policy.ts';
import { FilterCache } from '../pipeline/matching/subscription-filter.ts';
import type { Wiring } from './services.ts';

/**
 * The delivery plugins: each gets its context (ports, never the pipeline)
 * and builds its target; then the dispatcher that delivers through them.
 * Fills `wiring.delivery`.
 */
async function delivery(app: FastifyInstance, { wiring }: { wiring: Wiring }) {
  const { platform } = wiring;
  const { db, shutdown } = wiring.external;
  const core = wiring.coreServices;
  const targets = new Map<string, DeliveryTarget>();
  const contexts = new Map<string, DeliveryPluginContext>();
  const ongoing = createOngoingPort(db, platform.registry.feeds, () => wiring.pipeline.feedContexts, platform.feeds);
  for (const manifest of platform.registry.deliveries) {
    const log = app.log.child({ plugin: manifest.id });
    const context: DeliveryPluginContext = {
      pluginId: manifest.id,
      config: platform.sectionsOf(manifest.id) as SectionsConfig<any>,
      coreConfig: platform.coreSettings,
      db,
      log,
      auth: core.auth,
      now: platform.now,
      topicAllowlist: platform.registry.topicAllowlist,
      subscriptions: core.subscriptionAccess,
      ledger: core.ledgerAccess,
      queues: { define: <I, O>(definition: PluginQueueDefinition<I, O>) => core.queues.define(definition, log) },
      metrics: wiring.observability.metrics.forPlugin(manifest.id),
      feeds: platform.feeds,
      ongoing,
    };
    contexts.set(manifest.id, context);
    if (manifest.createTarget) targets.set(manifest.provider, checkedTarget(manifest.id, await manifest.createTarget(context)));
  }
  shutdown.add('delivery targets', async () => {
    for (const target of targets.values()) await target.close?.().catch((err: unknown) => app.log.warn({ err }, 'closing a delivery target failed'));
  });
  const settings = platform.config.NotificationPipeline;
  const coalesced = new Map(platform.registry.feeds.map((m) => [m.feed.id, new Set(m.coalescedEventTypes ?? [])]));
  const supersedes = new Map(platform.registry.feeds.map((m) => [m.feed.id, new Map(Object.entries(m.supersedes ?? {}))]));
  const urgent = new Map(platform.feeds.all().map((info) => [info.id, new Set(info.urgentEventTypes)]));
  const rules: FanoutRules = {
    filters: new FilterCache(),
    installed: () => [...targets.keys()],
    coalescedTypes: (feedId) => coalesced.get(feedId) ?? new Set(),
    supersededTypes: (feedId, eventType) => supersedes.get(feedId)?.get(eventType) ?? [],
    cooldownSeconds: settings.CooldownSeconds,
    quiet: {
      now: platform.now,
      urgentTypes: (feedId) => urgent.get(feedId) ?? new Set(),
      zoneOf: (feedId) => platform.feeds.get(feedId)?.timeZone ?? 'UTC',
    },
  };
  const rendering = new FeedRendering(platform.registry, platform.feedConfig);
  const dispatcher = new DeliveryDispatcher({
    db,
    rendering,
    queues: core.queues,
    targets,
    log: app.log.child({ component: 'dispatcher' }),
    batchSize: settings.DispatchBatchSize,
    batchesInFlight: settings.DispatchBatchesInFlight,
    retry: { ...DEFAULT_RETRY, maxAttempts: settings.MaxDeliveryAttempts },
    leaseSeconds: settings.DeliveryLeaseSeconds,
    sweepSeconds: settings.DispatchIntervalSeconds,
    now: platform.now,
    // What feeds the ledger after a hand-over: settle() waits for it first (the expander, made below, feeds the dispatcher in turn).
    upstream: { settle: () => expander.settle() },
    onSettled: (outcomes) => wiring.observability.deliveries.dispatched(outcomes),
  });
  const expander = new FanoutExpander({
    db,
    queues: core.queues,
    rules,
    log: app.log.child({ component: 'fanout' }),
    pageSize: settings.FanoutPageSize,
    leaseSeconds: settings.DeliveryLeaseSeconds,
    sweepSeconds: settings.DispatchIntervalSeconds,
    notifyDispatch: (trx) => dispatcher.notify(trx),
    reserveDelivery: () => dispatcher.reserve(),
    deliveryBatchSize: settings.DispatchBatchSize,
  });
  wiring.delivery = { targets, contexts, dispatcher, expander, rules, rendering };
}

export const deliveryWiring = fp(delivery, { name: 'np-delivery', dependencies: ['np-core-services'] });

/**
 * A target written for the per-create hook, which core no longer calls,
 * would leave its subscriptions without what it meant to record for them
 * (a verification email, say) and nothing would say why: the start stops
 * instead, naming the plugin and the hook to write.
 */
function checkedTarget(pluginId: string, target: DeliveryTarget): DeliveryTarget {
  if ('onSubscriptionCreated' in target) {
    throw new Error(
      `Plugin "${pluginId}": its delivery target defines onSubscriptionCreated(trx, subscription), which core no longer calls; ` +
        'define onSubscriptionsCreated(trx, subscriptions) instead: one call for the subscriptions created together.',
    );
  }
  return target;
}
