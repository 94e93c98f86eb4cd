import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import type { DeliveryOutcome, DeliveryRequest, DeliveryTarget } from '../../plugin-api/delivery-types.ts';
import { Limiter } from '../../plugin-api/limiter.ts';
import type { QueueHandle, QueueRegistry } from '../../queue/queue-registry.ts';
import { activeAmong } from '../../subscriptions/subscription-repository.ts';
import { judgeDelivery, type SettledDelivery } from './delivery-outcome.ts';
import type { LeasedClaim } from '../fanout/claim-page.ts';
import { LedgerQueueStore, type LeasedDelivery } from './ledger-queue-store.ts';
import { SettleAsYouGo } from './settle-as-you-go.ts';
import type { FeedRendering } from '../feed-rendering.ts';
import { toRecipient } from './recipient.ts';
import type { RetrySettings } from './retry-policy.ts';

export const DISPATCHER_QUEUE = 'core.delivery-dispatcher';

/** Room for one batch claimed already leased (see DeliveryDispatcher.reserve), and the lease to claim it under. */
export interface TakeOverSlot {
  readonly lease: { readonly token: string; readonly seconds: number };
  /** Delivers the rows claimed under `lease`, in the background; the room is freed when they are settled. */
  run(claims: readonly LeasedClaim[]): void;
  release(): void;
}

export interface DispatcherDependencies {
  db: Knex;
  /** Each row's event as its subscriber reads it (their language and zone); without it, the stored rendering. */
  rendering?: Pick<FeedRendering, 'forSubscriber'>;
  queues: QueueRegistry;
  targets: ReadonlyMap<string, DeliveryTarget>;
  log: FastifyBaseLogger;
  batchSize: number;
  retry: RetrySettings;
  /** How long a leased row is ours; a dead instance's rows are due again after it. */
  leaseSeconds: number;
  /** The periodic sweep; a timer wakes the dispatcher sooner for a retry due before it. */
  sweepSeconds: number;
  /** Leased batches worked at once: the next is leased (and settled) while others are on the wire. */
  batchesInFlight?: number;
  /** What feeds the ledger after a hand-over (the fan-out expander): settle() waits for it first. */
  upstream?: { settle(): Promise<void> };
  now?: () => Date;
  random?: () => number;
  /** Told each batch's outcomes with their provider and event once the ledger holds them (metrics); must not throw. */
  onSettled?: (outcomes: ReadonlyArray<{ ledgerId: number; provider: string; status: SettledDelivery['status']; event: object }>) => void;
}

const toRequest = (row: LeasedDelivery): DeliveryRequest => ({
  ledgerId: row.ledgerId,
  attempt: row.attempt,
  subscription: toRecipient(row.subscription.id, row.subscription),
  event: row.event,
  rendered: row.rendered,
});

const TALLIED = ['delivered', 'queued', 'retrying', 'failed'] as const;

/** A judged outcome whose `recorded` is set once its early settle is known to have gone through. */
type MutableSettled = { -readonly [K in keyof SettledDelivery]: SettledDelivery[K] };

/**
 * Delivers claimed ledger rows: the ledger is a leased queue (core/queue),
 * worked batch by batch. Direct targets (push) deliver and their answers
 * are judged and settled set-based; transactional targets (the email
 * outbox) take their rows inside a transaction that marks them `queued`,
 * and settle them later through the ledger port. Retries wait in the
 * ledger (retrying, next_attempt_at), so they survive restarts.
 */
export class DeliveryDispatcher {
  readonly #deps: DispatcherDependencies;
  readonly #store: LedgerQueueStore;
  readonly #queue: QueueHandle<LeasedDelivery, SettledDelivery>;
  /** Room for batches taken over from the fan-out (claimed already leased). */
  readonly #takeOverRoom: Limiter;
  readonly #takeOvers = new Set<Promise<void>>();

  constructor(deps: DispatcherDependencies) {
    this.#deps = deps;
    this.#store = new LedgerQueueStore(deps.db, deps.leaseSeconds);
    this.#takeOverRoom = new Limiter(deps.batchesInFlight ?? 1);
    this.#queue = deps.queues.define({
      name: DISPATCHER_QUEUE,
      store: this.#store,
      work: (batch, signal, token) => this.#work(batch, signal, token),
      tally: (outcomes, batch) => {
        const counts = Object.fromEntries(TALLIED.map((status) => [status, outcomes.filter((o) => o.status === status).length]));
        const provider = [...new Set(batch.map((row) => row.subscription.provider))].sort().join(', ');
        return { counts: { provider, ...counts }, failures: counts.failed };
      },
      onSettled: (outcomes, batch) => {
        if (!deps.onSettled) return;
        const rowOf = new Map<number, LeasedDelivery>();
        for (const row of batch) rowOf.set(row.ledgerId, row);
        const observed: Array<{ ledgerId: number; provider: string; status: SettledDelivery['status']; event: object }> = [];
        for (const outcome of outcomes) {
          const row = rowOf.get(outcome.id);
          if (row) observed.push({ ledgerId: outcome.id, provider: row.subscription.provider, status: outcome.status, event: row.event });
        }
        deps.onSettled(observed);
      },
      batchSize: deps.batchSize,
      batchesInFlight: deps.batchesInFlight,
      leaseSeconds: deps.leaseSeconds,
      sweepSeconds: deps.sweepSeconds,
    }, deps.log);
  }

  /** Deliveries one batch leases at most (NotificationPipeline__DispatchBatchSize). */
  get batchSize(): number {
    return this.#deps.batchSize;
  }

  /** Call inside the transaction that claimed deliveries: every instance's dispatcher wakes once it commits. */
  notify(trx: Knex.Transaction): Promise<void> {
    return this.#queue.notify(trx);
  }

  wake(): void {
    this.#queue.wake();
  }

  drain(): Promise<void> {
    return this.#queue.drain();
  }

  /** Waits for the fan-outs and the drain under way, then drains what is left: everything due is handled when it resolves. */
  async settle(): Promise<void> {
    await this.#deps.upstream?.settle();
    while (this.#takeOvers.size > 0) await Promise.all(this.#takeOvers);
    await this.#queue.settle();
  }

  /**
   * Waits for room to take over a batch claimed already leased (the fan-out
   * expander's pages), so the expander claims no faster than the rows go
   * out and a lease never lapses while its rows wait here. Call before
   * claiming; then `run` the claimed rows, or `release` the room unused.
   */
  async reserve(): Promise<TakeOverSlot> {
    await this.#takeOverRoom.acquire();
    return this.#slot();
  }

  /**
   * Room now, or none, with a lease to claim under: for a claim that must
   * not wait (the hand-over, inside its caller's transaction). Without room
   * the rows are claimed waiting, for any instance's dispatcher.
   */
  tryReserve(): TakeOverSlot | undefined {
    if (!this.#takeOverRoom.tryAcquire()) return undefined;
    return this.#slot();
  }

  /** The room taken (reserve, tryReserve), released once whatever happens. */
  #slot(): TakeOverSlot {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#takeOverRoom.release();
    };
    const lease = { token: randomUUID(), seconds: this.#deps.leaseSeconds };
    return {
      lease,
      release,
      run: (claims) => {
        const running: Promise<void> = this.#takeOver(claims, lease.token)
          .catch((err: unknown) => this.#deps.log.error({ err }, 'a taken-over batch failed; its rows are retaken after their lease'))
          .finally(() => {
            this.#takeOvers.delete(running);
            release();
          });
        this.#takeOvers.add(running);
      },
    };
  }

  async #takeOver(claims: readonly LeasedClaim[], token: string): Promise<void> {
    if (claims.length === 0) return;
    // Read again after the commit, as a lease reads them: a subscription stopped since its claim gets nothing.
    const [events, active] = await Promise.all([
      this.#store.eventsOf(this.#deps.db, [...new Set(claims.map((claim) => claim.eventId))]),
      activeAmong(this.#deps.db, claims.map((claim) => Number(claim.subscription.id))),
    ]);
    const batch: LeasedDelivery[] = claims.map(({ ledgerId, eventId, subscription }) => {
      const stored = events.get(eventId)!;
      return {
        ledgerId,
        eventId,
        attempt: 1,
        subscription: { ...subscription, preferences: subscription.preferences ?? {}, is_active: active.has(Number(subscription.id)) },
        event: stored.event,
        rendered: stored.rendered,
      };
    });
    await this.#queue.work(batch, token);
  }

  /** Delivers exactly these rows now (when due) and waits: /test, announcements. Returns how many were delivered or queued. */
  async deliverNow(ledgerIds: readonly number[]): Promise<number> {
    let done = 0;
    for (let start = 0; start < ledgerIds.length; start += this.#deps.batchSize) {
      const ids = ledgerIds.slice(start, start + this.#deps.batchSize);
      const token = randomUUID();
      const batch = await this.#store.leaseRows(this.#deps.db, ids.length, token, ids);
      const outcomes = await this.#queue.work(batch, token);
      done += outcomes.filter((outcome) => outcome.status === 'delivered' || outcome.status === 'queued').length;
    }
    return done;
  }

  async #work(leased: readonly LeasedDelivery[], signal: AbortSignal, token: string): Promise<SettledDelivery[]> {
    const now = this.#deps.now?.() ?? new Date();
    const outcomes: SettledDelivery[] = [];
    const byProvider = new Map<string, LeasedDelivery[]>();
    const rendering = this.#deps.rendering;
    const batch = rendering
      ? leased.map((row) => {
          const rendered = rendering.forSubscriber(row.eventId, row.event, row.rendered, row.subscription.preferences);
          return rendered === row.rendered ? row : { ...row, rendered };
        })
      : leased;
    for (const row of batch) {
      if (!row.subscription.is_active) {
        outcomes.push({ id: row.ledgerId, status: 'failed', retryInSeconds: null, error: 'subscription is no longer active' });
        continue;
      }
      let rows = byProvider.get(row.subscription.provider);
      if (!rows) byProvider.set(row.subscription.provider, (rows = []));
      rows.push(row);
    }
    const settled = await Promise.all(
      [...byProvider].map(([provider, rows]) => {
        const target = this.#deps.targets.get(provider);
        if (target?.enqueue) return this.#handOver(target, rows, token, now);
        return this.#deliverThrough(provider, target, rows, signal, now, token);
      }),
    );
    return outcomes.concat(...settled);
  }

  /**
   * A transactional target takes its rows in one transaction with their
   * move to `queued`: all or none. When that fails the rows are judged as a
   * transient failure of this attempt (retried after the backoff); the
   * other providers' outcomes of the batch are settled as usual.
   */
  async #handOver(target: DeliveryTarget, rows: readonly LeasedDelivery[], token: string, now: Date): Promise<SettledDelivery[]> {
    try {
      await this.#deps.db.transaction(async (trx) => {
        const queued = await this.#store.markQueued(trx, token, rows.map((row) => row.ledgerId));
        if (queued !== rows.length) throw new Error(`${rows.length - queued} of ${rows.length} rows are no longer this batch's`);
        await target.enqueue!(trx, rows.map(toRequest));
      });
      return rows.map((row) => ({ id: row.ledgerId, status: 'queued', retryInSeconds: null, error: null }));
    } catch (err) {
      this.#deps.log.error({ err, provider: target.provider, batch: rows.length }, 'delivery target could not take the batch; it will be retried');
      return this.#judgeAll(rows, rows.map(() => ({ kind: 'retry', reason: `target error: ${(err as Error).message}` })), now);
    }
  }

  #judgeAll(rows: readonly LeasedDelivery[], results: readonly DeliveryOutcome[], now: Date): SettledDelivery[] {
    return rows.map((row, index) => this.#judge(row, results[index], now));
  }

  /**
   * A direct target's batch: each outcome is judged and recorded as it
   * comes (settle-as-you-go, small groups) when the target reports them one
   * by one; whatever was not recorded then is settled with the batch.
   */
  async #deliverThrough(
    provider: string,
    target: DeliveryTarget | undefined,
    rows: readonly LeasedDelivery[],
    signal: AbortSignal,
    now: Date,
    token: string,
  ): Promise<SettledDelivery[]> {
    if (!target?.deliver) return this.#judgeAll(rows, rows.map(() => ({ kind: 'failed', reason: `no delivery target for provider ${provider}` })), now);
    const judged = new Array<MutableSettled | undefined>(rows.length);
    const early = new SettleAsYouGo((group) => this.#store.settle(token, group));
    let results: readonly DeliveryOutcome[];
    try {
      results = await target.deliver(rows.map(toRequest), signal, (index, outcome) => {
        if (judged[index] !== undefined || rows[index] === undefined) return;
        judged[index] = this.#judge(rows[index], outcome, now);
        early.add(judged[index]);
      });
      if (results.length !== rows.length) throw new Error(`target ${provider} returned ${results.length} outcomes for ${rows.length} requests`);
    } catch (err) {
      this.#deps.log.error({ err, provider, batch: rows.length }, 'delivery target threw; the batch will be retried');
      results = rows.map(() => ({ kind: 'retry', reason: `target error: ${(err as Error).message}` }));
    }
    const recorded = await early.finish().then(
      () => true,
      (err: unknown) => {
        this.#deps.log.warn({ err, provider }, 'recording outcomes early failed; they are recorded with the batch');
        return false;
      },
    );
    // The rows recorded early are marked so (the batch's settle skips them); the others are judged now.
    return rows.map((row, index) => {
      const early = judged[index];
      if (!early) return this.#judge(row, results[index], now);
      early.recorded = recorded;
      return early;
    });
  }

  #judge(row: LeasedDelivery, outcome: DeliveryOutcome, now: Date): MutableSettled {
    return judgeDelivery(row.ledgerId, row.attempt, outcome, now, (this.#deps.random ?? Math.random)(), this.#deps.retry);
  }
}
