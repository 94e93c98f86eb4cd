import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import type { DeliveryRequest, DeliveryTarget } from '../plugin-api/delivery-types.ts';
import type { NotificationEvent } from '../plugin-api/feed-types.ts';
import type { NotificationPipeline, ProcessOptions, ProcessResult } from '../plugin-api/pipeline-types.ts';
import type { PluginRegistry } from '../plugins/registry.ts';
import type { DeliveryDispatcher } from './delivery-dispatcher.ts';
import { activeSubscriptionPages, insertEvents, type PreparedEvent, type SubscriptionRow } from './event-store.ts';
import { claimDeliveries, coalesceClaims, systemDeliveryExists, type ClaimCandidate } from './ledger-repository.ts';
import { toRecipient } from './recipient.ts';
import { FilterCache } from './subscription-filter.ts';
import { renderTestEvent, TEST_EVENT_TYPE } from './test-event.ts';

export interface PipelineDependencies {
  db: Knex;
  registry: PluginRegistry;
  targets: ReadonlyMap<string, DeliveryTarget>;
  dispatcher: DeliveryDispatcher;
  log: FastifyBaseLogger;
  enabled: boolean;
  cooldownSeconds: number;
  /** A feed plugin's own config sections, handed to its renderers. */
  feedConfig(feedId: string): unknown;
  pageSize?: number;
}

const EMPTY: ProcessResult = Object.freeze({ matchedSubscriptionCount: 0, deliveredCount: 0, claimedCount: 0, wasSystemDelivery: false });

/**
 * ProcessNotificationEvents: the shared DELIVER step. Renders each event
 * once (an unsupported type fails before anything is written), stores the
 * events, pages through the feed's active subscriptions, matches them in
 * memory with compiled filters and claims ledger rows set-based. All of it
 * runs in the caller's transaction when one is given, so a monitor's
 * PERSIST and this hand-over commit together. Direct targets deliver after
 * the commit, through the dispatcher; transactional targets (the email
 * outbox) take their requests inside the transaction.
 */
export class NotificationPipelineService implements NotificationPipeline {
  readonly #deps: PipelineDependencies;
  readonly #filters = new FilterCache();

  constructor(deps: PipelineDependencies) {
    this.#deps = deps;
  }

  async processNotificationEvents(events: readonly NotificationEvent[], options: ProcessOptions = {}): Promise<ProcessResult> {
    if (events.length === 0) return EMPTY;
    const { log, db } = this.#deps;
    if (!this.#deps.enabled) {
      log.info({ events: events.length }, 'pipeline disabled (NotificationPipeline__Enabled=false): events not delivered');
      return EMPTY;
    }
    if (options.trx && options.awaitDelivery) throw new Error('awaitDelivery needs the pipeline to commit its own transaction');
    const prepared = events.map((event) => this.#prepare(event));
    const run = (trx: Knex.Transaction) => this.#claim(trx, prepared, options);
    const outcome = options.trx ? await run(options.trx) : await db.transaction(run);
    if (options.trx) {
      options.trx.executionPromise.then(() => this.#deps.dispatcher.wake(), () => undefined);
    } else if (!options.awaitDelivery) {
      this.#deps.dispatcher.wake();
    }
    let delivered = outcome.queued;
    if (options.awaitDelivery && outcome.directIds.length > 0) delivered += await this.#deps.dispatcher.deliverNow(outcome.directIds);
    return {
      matchedSubscriptionCount: outcome.matched,
      deliveredCount: delivered,
      claimedCount: outcome.claimed,
      wasSystemDelivery: outcome.wasSystemDelivery,
    };
  }

  #prepare(event: NotificationEvent): PreparedEvent {
    const feed = this.#deps.registry.feed(event.feedId);
    if (!feed) throw new Error(`ProcessNotificationEvents: unknown feed "${event.feedId}"`);
    const rendered =
      event.eventType === TEST_EVENT_TYPE
        ? renderTestEvent(event)
        : this.#deps.registry.rendererFor(event.feedId, event.eventType).render(event, { config: this.#deps.feedConfig(event.feedId) });
    return { event, itemKey: event.itemKey ?? event.sourceKey, rendered };
  }

  async #claim(trx: Knex.Transaction, prepared: readonly PreparedEvent[], options: ProcessOptions) {
    const eventIds = await insertEvents(trx, prepared);
    const byFeed = new Map<string, Array<PreparedEvent & { eventId: number }>>();
    prepared.forEach((entry, index) => {
      byFeed.set(entry.event.feedId, [...(byFeed.get(entry.event.feedId) ?? []), { ...entry, eventId: eventIds[index] }]);
    });
    const matchedSubscriptions = new Set<number>();
    const directIds: number[] = [];
    let claimed = 0;
    let queued = 0;
    for (const [feedId, feedEvents] of byFeed) {
      const coalesced = new Set(this.#deps.registry.feed(feedId)?.coalescedEventTypes ?? []);
      for await (const page of activeSubscriptionPages(trx, feedId, this.#deps.pageSize ?? 5000, options.onlySubscriptionIds)) {
        const candidates: ClaimCandidate[] = [];
        const contextOf = new Map<string, { row: SubscriptionRow; entry: PreparedEvent }>();
        for (const row of page) {
          const matches = options.onlySubscriptionIds ? () => true : this.#filters.get(row.filter_json);
          for (const entry of feedEvents) {
            if (!matches(entry.event)) continue;
            matchedSubscriptions.add(Number(row.id));
            const target = this.#deps.targets.get(row.provider);
            candidates.push({
              subscriptionId: Number(row.id),
              sourceKey: entry.event.sourceKey,
              eventType: entry.event.eventType,
              feedId,
              itemKey: entry.itemKey,
              eventId: entry.eventId,
              provider: row.provider,
              status: !target ? 'failed' : target.enqueue ? 'queued' : 'pending',
              lastError: target ? null : `no delivery target for provider ${row.provider}`,
            });
            contextOf.set(`${row.id}:${entry.eventId}`, { row, entry });
          }
        }
        const rows = await claimDeliveries(trx, candidates);
        claimed += rows.length;
        const transactional = new Map<string, DeliveryRequest[]>();
        const toCoalesce: number[] = [];
        for (const claimedRow of rows) {
          const { row, entry } = contextOf.get(`${claimedRow.subscription_id}:${claimedRow.event_id}`)!;
          const target = this.#deps.targets.get(row.provider);
          if (!target) continue;
          if (target.enqueue) {
            const request: DeliveryRequest = { ledgerId: Number(claimedRow.id), attempt: 1, subscription: toRecipient(row.id, row), event: entry.event, rendered: entry.rendered };
            transactional.set(row.provider, [...(transactional.get(row.provider) ?? []), request]);
          } else {
            directIds.push(Number(claimedRow.id));
            if (coalesced.has(entry.event.eventType)) toCoalesce.push(Number(claimedRow.id));
          }
        }
        for (const [provider, requests] of transactional) {
          await this.#deps.targets.get(provider)!.enqueue!(trx, requests);
          queued += requests.length;
        }
        await coalesceClaims(trx, toCoalesce, this.#deps.cooldownSeconds);
      }
    }
    const wasSystemDelivery = await systemDeliveryExists(
      trx,
      prepared.map(({ event }) => ({ feedId: event.feedId, sourceKey: event.sourceKey, eventType: event.eventType })),
    );
    return { matched: matchedSubscriptions.size, claimed, queued, directIds, wasSystemDelivery };
  }
}
