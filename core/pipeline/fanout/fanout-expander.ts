import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import type { QueueHandle, QueueRegistry } from '../../queue/queue-registry.ts';
import { subscriptionPage } from '../event-store.ts';
import { claimPage, type FanoutRules } from './claim-page.ts';
import { FanoutStore, type FanoutOutcome, type PendingFanout } from './fanout-store.ts';
import type { TakeOverSlot } from '../delivery/delivery-dispatcher.ts';

export const EXPANDER_QUEUE = 'core.fanout-expander';

export interface ExpanderDependencies {
  readonly db: Knex;
  readonly queues: QueueRegistry;
  readonly rules: FanoutRules;
  readonly log: FastifyBaseLogger;
  readonly pageSize: number;
  readonly leaseSeconds: number;
  readonly sweepSeconds: number;
  /** Inside a page's transaction: wakes the dispatchers once its claims commit (for rows claimed waiting). */
  notifyDispatch(trx: Knex.Transaction): Promise<void>;
  /** Room in this instance's dispatcher for a page claimed already leased (see DeliveryDispatcher.reserve). */
  reserveDelivery(): Promise<TakeOverSlot>;
  /** Rows one dispatcher batch takes (NotificationPipeline__DispatchBatchSize). */
  readonly deliveryBatchSize: number;
}

/**
 * Streams the fan-out of events whose subscribers did not fit the
 * hand-over's first page: page after page, each in its own short
 * transaction that claims the page's ledger rows and moves the event's
 * cursor, so delivery starts on the first page, a crash resumes from the
 * cursor, and memory stays bounded by the page size. A page's rows are
 * claimed already leased to this instance's dispatcher, which takes them
 * over as the transaction commits (no second write to lease each row); the
 * expander waits for the dispatcher's room before it claims a page, so it
 * never runs ahead of delivery and a lease never lapses while rows wait.
 * Events of one feed at one cursor (the events of one poll) go together.
 */
export class FanoutExpander {
  readonly #deps: ExpanderDependencies;
  readonly #store: FanoutStore;
  readonly #queue: QueueHandle<PendingFanout, FanoutOutcome>;
  /** Leases of callers that deliver what they claim themselves: their pages wake no dispatcher. */
  readonly #kept = new Set<string>();

  constructor(deps: ExpanderDependencies) {
    this.#deps = deps;
    this.#store = new FanoutStore(deps.db, deps.leaseSeconds);
    this.#queue = deps.queues.define(
      {
        name: EXPANDER_QUEUE,
        store: this.#store,
        work: (batch, signal, token) => this.#expand(batch, token, signal),
        tally: (outcomes) => ({
          counts: {
            events: outcomes.reduce((n, o) => n + o.eventIds.length, 0),
            pages: outcomes.reduce((n, o) => n + o.pages, 0),
            claimed: outcomes.reduce((n, o) => n + o.claimedIds.length, 0),
          },
          failures: 0,
        }),
        batchSize: 20,
        leaseSeconds: deps.leaseSeconds,
        sweepSeconds: deps.sweepSeconds,
      },
      deps.log,
    );
  }

  /**
   * Inside the hand-over's transaction: these events continue after
   * `cursor`. Without a token the expanders wake once it commits; with one,
   * the caller keeps them (expandNow) and waits.
   */
  async continueAfter(trx: Knex.Transaction, eventIds: readonly number[], cursor: number, keepFor?: string): Promise<void> {
    await this.#store.markContinued(trx, eventIds, cursor, keepFor);
    if (keepFor === undefined) await this.#queue.notify(trx);
  }

  settle(): Promise<void> {
    return this.#queue.settle();
  }

  /** Expands the events a hand-over kept under `token` (continueAfter) and waits; returns what was claimed. */
  async expandNow(token: string): Promise<{ claimedIds: number[]; matched: number }> {
    const batch = await this.#store.leasedTo(token);
    this.#kept.add(token);
    const outcomes = await this.#queue.work(batch, token).finally(() => this.#kept.delete(token));
    return { claimedIds: outcomes.flatMap((o) => o.claimedIds), matched: outcomes.reduce((n, o) => n + o.matched, 0) };
  }

  async #expand(batch: readonly PendingFanout[], token: string, signal: AbortSignal): Promise<FanoutOutcome[]> {
    const groups = new Map<string, PendingFanout[]>();
    for (const pending of batch) {
      const key = `${pending.event.feedId}\u0000${pending.cursor}`;
      const group = groups.get(key);
      if (group) group.push(pending);
      else groups.set(key, [pending]);
    }
    const outcomes: FanoutOutcome[] = [];
    for (const group of groups.values()) outcomes.push(await this.#expandGroup(group, token, signal));
    return outcomes;
  }

  async #expandGroup(group: readonly PendingFanout[], token: string, signal: AbortSignal): Promise<FanoutOutcome> {
    const { db, rules, pageSize } = this.#deps;
    const feedId = group[0].event.feedId;
    const eventIds = group.map((pending) => pending.eventId);
    let cursor = group[0].cursor;
    let pages = 0;
    let matched = 0;
    const claimedIds: number[] = [];
    let done = false;
    const leasable = group.length === 1 || group.length * pageSize <= Math.max(pageSize, this.#deps.deliveryBatchSize);
    while (!done && !signal.aborted) {
      // A caller that delivers what it claims itself (expandNow) gets rows claimed waiting; the others are claimed leased,
      // but for the pages of many events at once (a storm), which would make one batch of thousands: those wait for the dispatchers.
      const slot = this.#kept.has(token) || !leasable ? undefined : await this.#deps.reserveDelivery();
      const step = await db
        .transaction(async (trx) => {
          const page = await subscriptionPage(trx, feedId, cursor, pageSize);
          const claimed = await claimPage(trx, rules, feedId, group, page, false, slot?.lease);
          const next = page.length > 0 ? Number(page.at(-1)!.id) : cursor;
          const last = page.length < pageSize;
          // The lease was lost (this instance stalled past it): another one goes on from the cursor; nothing here commits.
          if (!(await this.#store.advance(trx, token, eventIds, next, last))) throw new LeaseLost();
          if (claimed.claimedIds.length > claimed.leased.length && !this.#kept.has(token)) await this.#deps.notifyDispatch(trx);
          return { next, last, claimed };
        })
        .catch((error: unknown) => {
          slot?.release();
          if (error instanceof LeaseLost) return null;
          throw error;
        });
      if (!step) break;
      if (slot) {
        if (step.claimed.leased.length > 0) slot.run(step.claimed.leased);
        else slot.release();
      }
      pages += 1;
      cursor = step.next;
      done = step.last;
      matched += step.claimed.matched.size;
      claimedIds.push(...step.claimed.claimedIds);
    }
    return { eventIds, pages, claimedIds, matched, done };
  }
}

class LeaseLost extends Error {}
