import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import type { NotificationEvent } from '../plugin-api/feed-types.ts';
import type { NotificationPipeline, ProcessOptions, ProcessResult } from '../plugin-api/pipeline-types.ts';
import type { PluginRegistry } from '../plugins/registry.ts';
import type { DeliveryLanes } from '../delivery/index.ts';
import { systemDeliveryExists, withdrawNotices } from '../ledger/index.ts';
import { cellsForShapes } from '../places/index.ts';
import { eventOfRow, insertEvents, type PreparedEvent } from './event-store.ts';
import { subscriptionPage, systemSubscriptions } from '../matching/index.ts';
import { discardHeldEvent, holdAboveThreshold, releaseHeldEvent } from '../hold/index.ts';
import { claimPage, type ClaimedPage, type FanoutEvent, type FanoutRules } from './fanout/claim-page.ts';
import type { FanoutLanes } from './fanout/fanout-lanes.ts';
import type { FeedRendering } from './feed-rendering.ts';

export interface PipelineDependencies {
  db: Knex;
  registry: PluginRegistry;
  rules: FanoutRules;
  lanes: DeliveryLanes;
  fanouts: FanoutLanes;
  log: FastifyBaseLogger;
  enabled: boolean;
  /** Renders each event (in English, the feed's zone) for the ledger. */
  rendering: FeedRendering;
  /** Subscriptions matched and claimed in the hand-over's transaction; the rest streams after the commit. */
  firstPageSize: number;
  /** An event reaching more subscriptions than this is held for an operator (0: off). */
  holdAboveSubscriptions?: number;
}

const EMPTY: ProcessResult = Object.freeze({ matchedSubscriptionCount: 0, deliveredCount: 0, claimedCount: 0, wasSystemDelivery: false });

interface HandOver {
  claimedIds: number[];
  matched: Set<number>;
  /** Lanes with rows claimed waiting: woken once the claims commit. */
  waiting: Set<string>;
  /** The lease under which the hand-over kept events whose fan-out continues (a caller that waits), if any. */
  kept?: string;
  /** The token of a caller that waits: its rows are claimed leased under it, and delivered under it. */
  callerToken?: string;
  wasSystemDelivery: boolean;
}

/**
 * ProcessNotificationEvents: the shared DELIVER step. Renders each event
 * once (an unsupported type fails before anything is written) and stores
 * the events. In the caller's transaction (a monitor's PERSIST commits
 * with it) it claims the feed's System subscriptions and the first page of
 * its subscriptions: bounded work whatever the number of subscribers. When
 * the page was full, the rest streams after the commit through the fan-out
 * expanders, page by page in each lane. Every claim goes out through its lane.
 */
export class NotificationPipelineService implements NotificationPipeline {
  readonly #deps: PipelineDependencies;

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
    const run = async (trx: Knex.Transaction) => {
      const handOver = await this.#handOver(trx, prepared, options);
      // Deliveries the caller waits for go out below; the others wake their lanes once the claims commit.
      if (handOver.waiting.size > 0 && !options.awaitDelivery) await this.#deps.lanes.notify(trx, handOver.waiting);
      return handOver;
    };
    const handOver = options.trx ? await run(options.trx) : await db.transaction(run);
    if (!options.awaitDelivery) {
      return {
        matchedSubscriptionCount: handOver.matched.size,
        deliveredCount: 0,
        claimedCount: handOver.claimedIds.length,
        wasSystemDelivery: handOver.wasSystemDelivery,
      };
    }
    // The caller waits for everything: the rest of the fan-out too, then every delivery.
    const rest = handOver.kept ? await this.#deps.fanouts.expandNow(handOver.kept) : { claimedIds: [], matched: 0 };
    const claimedIds = [...handOver.claimedIds, ...rest.claimedIds];
    const delivered = claimedIds.length > 0 ? await this.#deps.lanes.deliverNow(claimedIds, handOver.callerToken) : 0;
    return {
      matchedSubscriptionCount: handOver.matched.size + rest.matched,
      deliveredCount: delivered,
      claimedCount: claimedIds.length,
      wasSystemDelivery: handOver.wasSystemDelivery,
    };
  }

  #prepare(event: NotificationEvent): PreparedEvent {
    const feed = this.#deps.registry.feed(event.feedId);
    if (!feed) throw new Error(`ProcessNotificationEvents: unknown feed "${event.feedId}"`);
    if (event.confirmBy !== undefined && Number.isNaN(Date.parse(event.confirmBy))) {
      throw new Error(`ProcessNotificationEvents: confirmBy of ${event.feedId} ${event.sourceKey} is not an ISO 8601 instant`);
    }
    return { event, itemKey: event.itemKey ?? event.sourceKey, rendered: this.#deps.rendering.render(event) };
  }

  async #handOver(trx: Knex.Transaction, prepared: readonly PreparedEvent[], options: ProcessOptions): Promise<HandOver> {
    const { rules, firstPageSize } = this.#deps;
    const eventIds = await insertEvents(trx, prepared);
    const byFeed = new Map<string, FanoutEvent[]>();
    prepared.forEach((entry, index) => {
      const fanout: FanoutEvent = { eventId: eventIds[index], event: entry.event, itemKey: entry.itemKey };
      const list = byFeed.get(entry.event.feedId);
      if (list) list.push(fanout);
      else byFeed.set(entry.event.feedId, [fanout]);
    });
    // A caller that waits for its deliveries keeps them: its rows are claimed leased to it (out of the lanes' reach until
    // it delivers them), and the rest of its fan-out is kept for it, under one token.
    const keepFor = options.awaitDelivery ? this.#deps.lanes.newToken() : undefined;
    const callerLease = keepFor === undefined ? undefined : this.#deps.lanes.callerLease(keepFor);
    const handOver: HandOver = { claimedIds: [], matched: new Set(), waiting: new Set(), wasSystemDelivery: false, callerToken: keepFor };
    let heldAny = false;
    const take = (page: ClaimedPage) => {
      handOver.claimedIds.push(...page.claimedIds);
      for (const id of page.matched) handOver.matched.add(id);
      for (const provider of page.waitingProviders) handOver.waiting.add(provider);
    };
    for (const [feedId, all] of byFeed) {
      // An operator's own call (an announcement they confirmed, a /test) is never held.
      const held =
        options.onlySubscriptionIds || options.awaitDelivery
          ? new Set<number>()
          : await holdAboveThreshold(
              trx,
              { filters: rules.filters, above: this.#deps.holdAboveSubscriptions ?? 0, pageSize: this.#deps.firstPageSize, log: this.#deps.log },
              feedId,
              all,
            );
      const feedEvents = all.filter((entry) => !held.has(entry.eventId));
      heldAny ||= held.size > 0;
      if (feedEvents.length === 0) continue;
      // An item's end (a planned outage cancelled) calls off what its notices asked to confirm (not while an operator holds it).
      await this.#withdrawEnded(trx, feedId, feedEvents);
      if (options.onlySubscriptionIds) {
        // /test: these subscriptions, whatever their filter.
        take(
          await claimPage(
            trx,
            rules,
            feedId,
            feedEvents,
            await subscriptionPage(trx, feedId, 0, options.onlySubscriptionIds.length, { onlyIds: options.onlySubscriptionIds }),
            true,
            callerLease,
          ),
        );
        continue;
      }
      take(await claimPage(trx, rules, feedId, feedEvents, await systemSubscriptions(trx, feedId), false, callerLease));
      const first = await subscriptionPage(trx, feedId, 0, firstPageSize, { cells: cellsForShapes(feedEvents.map((entry) => entry.event.geometry)) });
      // With room in a lane of this instance, the first page's rows of that lane are claimed already leased to it,
      // in parts of one batch each (a part per free batch slot), and given to the lane once the transaction commits (not a
      // savepoint's release): no second write to lease them, no wake-up and lease to wait for. Lanes without room (or
      // with a rate, or paused), and a storm of events (more than a batch holds for one subscription), wait for the
      // lanes' own bounded batches.
      const perPart = Math.floor(this.#deps.lanes.batchSize / feedEvents.length);
      const mayLease = !options.awaitDelivery && !trx.parentTransaction && perPart >= 1;
      for (let start = 0; start < first.length; start += mayLease ? perPart : first.length) {
        const part = mayLease ? first.slice(start, start + perPart) : first;
        const takeOver = mayLease ? this.#deps.lanes.tryTakeOver(part.map((row) => row.provider)) : undefined;
        let leased: ClaimedPage['leased'] = [];
        // Settled before the claim runs: a claim that throws rolls the transaction back, and the room is given back then too.
        if (takeOver)
          trx.executionPromise.then(
            () => takeOver.run(leased),
            () => takeOver.release(),
          );
        const claimed = await claimPage(trx, rules, feedId, feedEvents, part, false, takeOver ?? callerLease);
        leased = claimed.leased;
        take(claimed);
      }
      if (first.length === firstPageSize) {
        await this.#deps.fanouts.continueAfter(
          trx,
          feedEvents.map((entry) => entry.eventId),
          Number(first.at(-1)!.id),
          keepFor,
        );
        handOver.kept = keepFor;
      }
    }
    handOver.claimedIds.sort((a, b) => a - b);
    // A held event is the pipeline's to deliver once an operator decides: its caller (a digest's run) must not make it again.
    handOver.wasSystemDelivery =
      heldAny ||
      (await systemDeliveryExists(
        trx,
        prepared.map(({ event }) => ({ feedId: event.feedId, sourceKey: event.sourceKey, eventType: event.eventType })),
      ));
    return handOver;
  }

  /**
   * An operator releases a held event: once (the first release wins, on any
   * instance), its System subscriptions are claimed and its fan-out starts
   * from the first subscription, as a hand-over's would. False when it is
   * not held (unknown, released or discarded already). `record` runs in
   * the same transaction (the audit line).
   */
  /** The ends of items among these events (a planned outage cancelled) call off what the items' notices asked to confirm. */
  async #withdrawEnded(trx: Knex.Transaction, feedId: string, events: readonly FanoutEvent[]): Promise<void> {
    const ends = this.#deps.rules.telling(feedId).endTypes;
    const ended = events.filter((entry) => ends.has(entry.event.eventType)).map((entry) => entry.itemKey);
    if (ended.length > 0) await withdrawNotices(trx, feedId, ended, this.#deps.rules.quiet?.now() ?? new Date());
  }

  async releaseHeld(eventId: number, actor: string, record?: (trx: Knex.Transaction) => Promise<void>): Promise<boolean> {
    return this.#deps.db.transaction(async (trx) => {
      const row = await releaseHeldEvent(trx, eventId, actor);
      if (!row) return false;
      const entry: FanoutEvent = { eventId, event: eventOfRow(row), itemKey: row.item_key };
      await this.#withdrawEnded(trx, row.feed_id, [entry]);
      const system = await claimPage(trx, this.#deps.rules, row.feed_id, [entry], await systemSubscriptions(trx, row.feed_id));
      if (system.waitingProviders.size > 0) await this.#deps.lanes.notify(trx, system.waitingProviders);
      await this.#deps.fanouts.continueAfter(trx, [eventId], 0);
      await record?.(trx);
      return true;
    });
  }

  /** An operator discards a held event: it is never delivered. False when it is not held. `record` runs in the same transaction (the audit line). */
  async discardHeld(eventId: number, actor: string, record?: (trx: Knex.Transaction) => Promise<void>): Promise<boolean> {
    return this.#deps.db.transaction(async (trx) => {
      if (!(await discardHeldEvent(trx, eventId, actor))) return false;
      await record?.(trx);
      return true;
    });
  }
}
