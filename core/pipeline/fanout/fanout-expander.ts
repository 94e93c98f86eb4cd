import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import type { DeliveryLanes } from '../../delivery/index.ts';
import type { QueueHandle, QueueRegistry } from '../../queue/queue-registry.ts';
import { cellsForShapes } from '../../places/index.ts';
import { subscriptionPage } from '../../matching/index.ts';
import { claimPage, type FanoutRules } from './claim-page.ts';
import { FanoutStore, type FanoutOutcome, type PendingFanout } from './fanout-store.ts';

/** `Sms` → `core.fanout.sms`: a lane's fan-out queue (and the name of its sweep). */
export const fanoutQueueName = (provider: string) => `core.fanout.${provider.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

export interface ExpanderDependencies {
  readonly db: Knex;
  readonly queues: QueueRegistry;
  readonly rules: FanoutRules;
  readonly log: FastifyBaseLogger;
  /** The lane this expander feeds. */
  readonly provider: string;
  readonly lanes: DeliveryLanes;
  readonly pageSize: number;
  readonly leaseSeconds: number;
  readonly sweepSeconds: number;
}

/**
 * Streams one lane's share of the fan-out of events whose subscribers did
 * not fit the hand-over's first page: page after page of that provider's
 * subscriptions, each page in its own short transaction that claims its
 * ledger rows and moves the event's cursor in this lane, so delivery
 * starts on the first page, a crash resumes from the cursor, and memory
 * stays bounded by the page size. Each lane fans out on its own: a slow
 * lane never holds up another's pages. A page is claimed already leased
 * to its lane when the lane takes rows over (no second write to lease
 * them); the expander then waits for the lane's room before it claims, so
 * it never runs ahead of delivery. A lane with a rate gets its rows
 * claimed waiting, at once. Events of one feed at one cursor (the events
 * of one poll) go together.
 */
export class FanoutExpander {
  readonly #deps: ExpanderDependencies;
  readonly #store: FanoutStore;
  readonly #queue: QueueHandle<PendingFanout, FanoutOutcome>;
  /** Leases of callers that deliver what they claim themselves: their pages wake no lane. */
  readonly #kept = new Set<string>();

  constructor(deps: ExpanderDependencies) {
    this.#deps = deps;
    this.#store = new FanoutStore(deps.db, deps.provider, deps.leaseSeconds);
    this.#queue = deps.queues.define(
      {
        name: fanoutQueueName(deps.provider),
        store: this.#store,
        work: (batch, signal, token) => this.#expand(batch, token, signal),
        tally: (outcomes) => ({
          counts: {
            provider: deps.provider,
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

  get provider(): string {
    return this.#deps.provider;
  }

  get queueName(): string {
    return this.#queue.name;
  }

  /** Inside the transaction that added fan-outs for this lane: its expanders wake on every instance once it commits. */
  notify(trx: Knex.Transaction): Promise<void> {
    return this.#queue.notify(trx);
  }

  settle(): Promise<void> {
    return this.#queue.settle();
  }

  /** Expands this lane's events a hand-over kept under `token` and waits; returns what was claimed. */
  async expandNow(token: string): Promise<{ claimedIds: number[]; matched: number }> {
    const batch = await this.#store.leasedTo(token);
    if (batch.length === 0) return { claimedIds: [], matched: 0 };
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
    const { db, rules, pageSize, provider, lanes } = this.#deps;
    const feedId = group[0]!.event.feedId;
    const eventIds = group.map((pending) => pending.eventId);
    let cursor = group[0]!.cursor;
    let pages = 0;
    let matched = 0;
    const claimedIds: number[] = [];
    let done = false;
    // The pages of many events at once (a storm) would make one batch of thousands: those wait for the lane's own batches.
    const cells = cellsForShapes(group.map((pending) => pending.event.geometry));
    const leasable = group.length === 1 || group.length * pageSize <= Math.max(pageSize, lanes.batchSize);
    while (!done && !signal.aborted) {
      // A caller that delivers what it claims itself (expandNow) gets its rows claimed leased to it, under the token it kept them with.
      const kept = this.#kept.has(token);
      const takeOver = kept || !leasable ? undefined : await lanes.takeOver(provider);
      const lease = kept ? lanes.callerLease(token, [provider]) : takeOver;
      const step = await db
        .transaction(async (trx) => {
          const page = await subscriptionPage(trx, feedId, cursor, pageSize, { provider, cells });
          const claimed = await claimPage(trx, rules, feedId, group, page, false, lease);
          const next = page.length > 0 ? Number(page.at(-1)!.id) : cursor;
          const last = page.length < pageSize;
          // The lease was lost (this instance stalled past it): another one goes on from the cursor; nothing here commits.
          if (!(await this.#store.advance(trx, token, eventIds, next, last))) throw new LeaseLost();
          if (claimed.claimedIds.length > claimed.leased.length && !kept) await lanes.notify(trx, [provider]);
          return { next, last, claimed };
        })
        .catch((error: unknown) => {
          takeOver?.release();
          if (error instanceof LeaseLost) return null;
          throw error;
        });
      if (!step) break;
      takeOver?.run(step.claimed.leased);
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
