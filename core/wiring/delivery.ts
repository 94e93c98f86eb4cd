import { filterMatchOf } from '../plugins/filter-fields.ts';
import type { FastifyInstance } from 'fastify';
import type { DeliveryTarget } from '../plugin-api/delivery-types.ts';
import type { DeliveryPluginContext, DeliveryPluginManifest, FeedPluginContext, SectionsConfig } from '../plugin-api/manifest.ts';
import type { PluginQueueDefinition } from '../plugin-api/queue-types.ts';
import { createOngoingPort } from '../feeds/ongoing-port.ts';
import { createLanePort, DEFAULT_RETRY, DeliveryLane, DeliveryLanes, ensureLanes, EventCache, LaneControl } from '../delivery/index.ts';
import { FeedRendering } from '../pipeline/feed-rendering.ts';
import { createStillOutInvite, createStillOutPort, stillOutKey } from '../still-out/index.ts';
import { createConfirmations } from '../confirmation/confirmations.ts';
import type { FanoutRules } from '../pipeline/fanout/claim-page.ts';
import { tellingRulesOf } from '../pipeline/fanout/telling.ts';
import { FanoutExpander } from '../pipeline/fanout/fanout-expander.ts';
import { FanoutLanes } from '../pipeline/fanout/fanout-lanes.ts';
import { wirePluginParts, type WiredParts } from '../plugins/plugin-parts.ts';
import { FilterCache } from '../matching/index.ts';
import type { Later } from './later.ts';
import type { CoreServices, Delivery, External, Observability, Platform } from './services.ts';

export interface DeliveryInputs {
  readonly platform: Platform;
  readonly external: External;
  readonly observability: Observability;
  readonly coreServices: CoreServices;
  /** The feed plugins' contexts, made by the pipeline step after this one: the `ongoing` port reads them when asked, never at start. */
  readonly feedContexts: Later<ReadonlyMap<string, FeedPluginContext>>;
}

/**
 * The delivery plugins: each gets its context (ports, never the pipeline)
 * and builds its target; then one lane per target, each with its fan-out
 * expander.
 */
export async function wireDelivery(app: FastifyInstance, inputs: DeliveryInputs): Promise<Delivery> {
  const { platform, observability, feedContexts } = inputs;
  const { db, shutdown, wakeups } = inputs.external;
  const core = inputs.coreServices;
  const settings = platform.config.NotificationPipeline;
  const targets = new Map<string, DeliveryTarget>();
  const contexts = new Map<string, DeliveryPluginContext>();
  const controls = new Map<string, LaneControl>();
  const parts = new Map<string, WiredParts>();
  await ensureLanes(
    db,
    platform.registry.deliveries.map((manifest) => manifest.provider),
  );
  const ongoing = createOngoingPort(db, platform.registry.feeds, () => feedContexts.get(), platform.feeds);
  const stillOutTypes = platform.registry.feeds.flatMap((m) => (m.stillOutEventTypes ?? []).map((eventType) => ({ feedId: m.feed.id, eventType })));
  const stillOut = createStillOutPort(db, stillOutTypes);
  const stillOutKeyOfLinks = await stillOutKey(db);
  const confirmations = createConfirmations({
    db,
    now: platform.now,
    key: stillOutKeyOfLinks,
    publicBaseUrl: platform.config.PublicBaseUrl,
    listAfterMinutes: platform.config.Confirmation.ListAfterMinutes,
  });
  for (const manifest of platform.registry.deliveries) {
    const log = app.log.child({ plugin: manifest.id });
    const control = new LaneControl({
      db,
      provider: manifest.provider,
      ratePerSecond: rateOf(manifest, settings.Rates),
      wakeups,
      log: app.log.child({ lane: manifest.provider }),
    });
    controls.set(manifest.provider, control);
    shutdown.add(`lane ${manifest.provider}`, async () => control.close());
    const context: DeliveryPluginContext = {
      pluginId: manifest.id,
      // biome-ignore lint/suspicious/noExplicitAny: each plugin's own sections, typed by the plugin, not by core
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
      metrics: observability.metrics.forPlugin(manifest.id),
      feeds: platform.feeds,
      ongoing,
      lane: createLanePort(control),
      stillOut,
      confirmations: confirmations.port,
    };
    contexts.set(manifest.id, context);
    const wired = await wirePluginParts(manifest, context);
    parts.set(manifest.id, wired);
    if (wired.target) targets.set(manifest.provider, checkedTarget(manifest.id, wired.target));
  }
  warnUnknownRates(
    app,
    settings.Rates,
    platform.registry.deliveries.map((manifest) => manifest.provider),
  );
  shutdown.add('delivery targets', async () => {
    for (const target of targets.values()) await target.close?.().catch((err: unknown) => app.log.warn({ err }, 'closing a delivery target failed'));
  });
  const coalesced = new Map(platform.registry.feeds.map((m) => [m.feed.id, new Set(m.coalescedEventTypes ?? [])]));
  const urgent = new Map(platform.feeds.all().map((info) => [info.id, new Set(info.urgentEventTypes)]));
  const telling = new Map(platform.registry.feeds.map((m) => [m.feed.id, tellingRulesOf(m, platform.feedConfig(m.feed.id), settings.MaxMessagesPerItem)]));
  const rules: FanoutRules = {
    filters: new FilterCache(filterMatchOf(platform.registry.feeds.map((manifest) => manifest.feed))),
    installed: () => [...targets.keys()],
    coalescedTypes: (feedId) => coalesced.get(feedId) ?? new Set(),
    urgentTypes: (feedId) => urgent.get(feedId) ?? new Set(),
    cooldownSeconds: settings.CooldownSeconds,
    telling: (feedId) => telling.get(feedId) ?? { maxPerItem: settings.MaxMessagesPerItem, endTypes: new Set() },
    quiet: {
      now: platform.now,
      zoneOf: (feedId) => platform.feeds.get(feedId)?.timeZone ?? 'UTC',
    },
  };
  const rendering = new FeedRendering(platform.registry, platform.feedConfig);
  const invite = createStillOutInvite({
    key: stillOutKeyOfLinks,
    publicBaseUrl: platform.config.PublicBaseUrl,
    types: new Map(platform.registry.feeds.map((m) => [m.feed.id, new Set(m.stillOutEventTypes ?? [])])),
    messagesOf: (feedId) => rendering.messagesOf(feedId),
  });
  const events = new EventCache();
  const laneSettings = {
    batchSize: settings.DispatchBatchSize,
    batchesInFlight: settings.DispatchBatchesInFlight,
    leaseSeconds: settings.DeliveryLeaseSeconds,
    sweepSeconds: settings.DispatchIntervalSeconds,
    retry: { ...DEFAULT_RETRY, maxAttempts: settings.MaxDeliveryAttempts },
  };
  const lanes = new DeliveryLanes({
    db,
    newToken: () => platform.leaseOwner.token(),
    events,
    leaseSeconds: settings.DeliveryLeaseSeconds,
    batchSize: settings.DispatchBatchSize,
    lanes: [...targets].map(
      ([provider, target]) =>
        new DeliveryLane({
          provider,
          target,
          db,
          queues: core.queues,
          control: controls.get(provider)!,
          events,
          rendering,
          invite: (delivery) => invite(delivery, target.answersByReply === true),
          confirmations: {
            ask: (rows) => confirmations.ask(rows),
            line: (confirmationId, language) => (target.confirmsByKey ? null : confirmations.line(confirmationId, language, target.answersByReply === true)),
          },
          log: app.log.child({ component: 'dispatcher', lane: provider }),
          settings: laneSettings,
          now: platform.now,
          stopGone: (subscriptionIds) => core.subscriptionAccess.setActive(subscriptionIds, false),
          // A deferral is no outcome: the row waits again, its attempt not counted.
          // A failure because the destination is gone is counted as such too (outcome="gone").
          onSettled: (outcomes) =>
            observability.deliveries.dispatched(
              outcomes.flatMap((o) => (o.status === 'deferred' ? [] : [{ ...o, status: o.status }, ...(o.gone ? [{ ...o, status: 'gone' as const }] : [])])),
            ),
        }),
    ),
  });
  const fanouts = new FanoutLanes(
    lanes.providers.map(
      (provider) =>
        new FanoutExpander({
          db,
          queues: core.queues,
          rules,
          log: app.log.child({ component: 'fanout', lane: provider }),
          provider,
          lanes,
          pageSize: settings.FanoutPageSize,
          leaseSeconds: settings.DeliveryLeaseSeconds,
          sweepSeconds: settings.DispatchIntervalSeconds,
        }),
    ),
    settings.DeliveryLeaseSeconds,
  );
  return {
    targets,
    contexts,
    parts,
    lanes,
    fanouts,
    rules,
    rendering,
    controls,
    stillOut: { key: stillOutKeyOfLinks, types: stillOutTypes },
    confirmations,
  };
}

/** A lane's rate: NotificationPipeline__Rates__<Provider> (its name in any case), else the plugin's default, else none. */
function rateOf(manifest: DeliveryPluginManifest, rates: Readonly<Record<string, number>>): number {
  const key = Object.keys(rates).find((name) => name.toLowerCase() === manifest.provider.toLowerCase());
  const rate = key === undefined ? manifest.defaultRatePerSecond : Number(rates[key]);
  return rate !== undefined && Number.isFinite(rate) && rate > 0 ? rate : 0;
}

/** A rate for a provider nobody installed is most likely a typo: said once at start. */
function warnUnknownRates(app: FastifyInstance, rates: Readonly<Record<string, number>>, providers: readonly string[]): void {
  const known = new Set(providers.map((provider) => provider.toLowerCase()));
  for (const name of Object.keys(rates)) {
    if (!known.has(name.toLowerCase()))
      app.log.warn({ key: `NotificationPipeline__Rates__${name}`, providers }, 'a rate names no installed delivery provider; it is ignored');
  }
}

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
