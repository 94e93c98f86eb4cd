import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import { markQueued, settleLeased, type LeasedRow, type LeasedSubscription, type SettledDelivery } from '../ledger/index.ts';
import type { DeliveryOutcome, DeliveryRequest, DeliveryTarget } from '../plugin-api/delivery-types.ts';
import type { NotificationEvent } from '../plugin-api/feed-types.ts';
import type { QueueHandle, QueueRegistry } from '../queue/queue-registry.ts';
import { activeAmong } from './active-subscriptions.ts';
import { deferred, judgeDelivery } from './delivery-outcome.ts';
import type { EventCache } from './event-cache.ts';
import type { LaneControl } from './lane-control.ts';
import { LaneQueueStore, withEvents, type LeasedDelivery } from './lane-queue-store.ts';
import { LaneRoom } from './lane-room.ts';
import { toRecipient } from './recipient.ts';
import { RequestWindow } from './request-window.ts';
import type { RetrySettings } from '../plugin-api/retry-policy.ts';
import { SettleAsYouGo } from './settle-as-you-go.ts';
import type { SubscriberRendering } from './subscriber-rendering.ts';
import { inLanguageOf } from './spoken-language.ts';

/** Requests a direct target is handed at once when it does not say (DeliveryTarget.concurrency). */
export const DEFAULT_CONCURRENCY = 64;
/**
 * A lane with a rate leases about this many seconds' worth of sends at a
 * time, and at most two such batches at once (one going out, the next
 * ready): an urgent row waits at most about two of them behind what was
 * leased before it.
 */
const RATED_BATCH_SECONDS = 1;
const RATED_BATCHES_IN_FLIGHT = 2;
/** Sends whose slots fall this close together go to the target in one call, at the last one's slot (never before a slot). */
const SLOT_TICK_MS = 20;
/** How many times sends whose slots were missed take new ones before they go anyway. */
const MAX_SLOT_RETAKES = 3;

/** `Sms` → `core.delivery.sms`: the lane's queue (and the name of its sweep). */
export const laneQueueName = (provider: string) => `core.delivery.${provider.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

export interface LaneSettings {
  /** Rows one batch leases at most (NotificationPipeline__DispatchBatchSize). */
  readonly batchSize: number;
  /** Batches in flight at once, leased or taken over (NotificationPipeline__DispatchBatchesInFlight). */
  readonly batchesInFlight: number;
  readonly leaseSeconds: number;
  readonly sweepSeconds: number;
  readonly retry: RetrySettings;
}

export interface LaneDependencies {
  readonly provider: string;
  /** Its installed target; none: its rows fail, saying so. */
  readonly target: DeliveryTarget | undefined;
  readonly db: Knex;
  readonly queues: QueueRegistry;
  readonly control: LaneControl;
  readonly events: EventCache;
  /** Each row's event as its subscriber reads it (their language and zone, what they missed); without it, the stored rendering. */
  readonly rendering?: SubscriberRendering;
  /** The line a message that ends an item adds to ask "still out?" (a link, or the word to reply on a target that takes replies); null for others. */
  readonly invite?: (delivery: { ledgerId: number; event: NotificationEvent; language?: string }) => string | null;
  /**
   * Confirmations: the open confirmation each row asks for (its subscriber
   * confirms and it is urgent, or it is an escalation step), and the line
   * that asks, in the subscriber's language (null: the target asks itself, by a key).
   */
  readonly confirmations?: {
    ask(rows: readonly LeasedDelivery[]): Promise<ReadonlyMap<number, number>>;
    line(confirmationId: number, language: string | undefined): string | null;
  };
  readonly log: FastifyBaseLogger;
  readonly settings: LaneSettings;
  readonly now?: () => Date;
  readonly random?: () => number;
  /** Stops the subscriptions whose destination a target found gone (a `failed` outcome with `gone`), after their batch. */
  readonly stopGone?: (subscriptionIds: readonly number[]) => Promise<void>;
  /** Told each batch's outcomes with their provider and event once the ledger holds them (metrics); must not throw. */
  readonly onSettled?: (
    outcomes: ReadonlyArray<{ ledgerId: number; provider: string; status: SettledDelivery['status']; gone: boolean; event: object }>,
  ) => void;
}

/** A row claimed already leased to a lane, with what its delivery needs. */
export interface LeasedClaim {
  readonly ledgerId: number;
  readonly eventId: number;
  readonly replaces: readonly number[];
  readonly subscription: Omit<LeasedSubscription, 'is_active' | 'preferences'> & { readonly preferences?: LeasedSubscription['preferences'] | null };
}

/** Room taken in a lane for a batch claimed already leased under the caller's token. */
export interface LaneSlot {
  /** Delivers the rows claimed under the token, in the background; the room is freed when they are settled. */
  run(claims: readonly LeasedClaim[]): void;
  release(): void;
}

const TALLIED = ['delivered', 'queued', 'retrying', 'deferred', 'failed'] as const;

/** A judged outcome whose `recorded` is set once its early settle is known to have gone through. */
type MutableSettled = { -readonly [K in keyof SettledDelivery]: SettledDelivery[K] };

const toRequest = (row: LeasedDelivery): DeliveryRequest => ({
  ledgerId: row.ledgerId,
  attempt: row.attempt,
  subscription: toRecipient(row.subscription.id, row.subscription),
  event: row.event,
  rendered: row.rendered,
  ...(row.confirm ? { confirm: true } : {}),
  ...(row.asks ? { asks: row.asks } : {}),
});

/**
 * One provider's lane: its own share of the ledger (leased by provider,
 * urgent rows first), its own batches in flight, its own requests in
 * flight, its rate and its pause, so a slow, paused or failing provider
 * never delays another's deliveries. A direct target is handed requests in
 * groups as its window frees (never more than it can answer at once), at
 * the lane's rate when it has one; a pause (the peer said to slow down)
 * stops what has not gone out, which waits again without its attempt
 * counted. A transactional target (the email outbox) takes its rows in one
 * transaction with their move to `queued`.
 */
export class DeliveryLane {
  readonly provider: string;
  readonly #deps: LaneDependencies;
  readonly #queue: QueueHandle<LeasedDelivery, SettledDelivery>;
  readonly #room: LaneRoom;
  readonly #window: RequestWindow;
  readonly #takeOvers = new Set<Promise<void>>();
  #pausing: Promise<unknown> | undefined;

  constructor(deps: LaneDependencies) {
    this.provider = deps.provider;
    this.#deps = deps;
    const { settings, control } = deps;
    const paced = control.ratePerSecond > 0 && !deps.target?.enqueue;
    this.#room = new LaneRoom(paced ? Math.min(settings.batchesInFlight, RATED_BATCHES_IN_FLIGHT) : settings.batchesInFlight);
    this.#window = new RequestWindow(() => Math.max(1, Math.floor(deps.target?.concurrency?.() ?? DEFAULT_CONCURRENCY)));
    const batchSize = paced ? Math.min(settings.batchSize, Math.max(1, Math.ceil(control.ratePerSecond * RATED_BATCH_SECONDS))) : settings.batchSize;
    this.#queue = deps.queues.define(
      {
        name: laneQueueName(deps.provider),
        store: new LaneQueueStore(deps.db, deps.provider, settings.leaseSeconds, deps.events),
        work: (batch, signal, token) => this.#work(batch, signal, token),
        tally: (outcomes) => {
          const counts = Object.fromEntries(TALLIED.map((status) => [status, outcomes.filter((o) => o.status === status).length]));
          return { counts: { provider: deps.provider, ...counts }, failures: counts.failed };
        },
        onSettled: (outcomes, batch) => {
          if (!deps.onSettled) return;
          const rowOf = new Map(batch.map((row) => [row.ledgerId, row]));
          deps.onSettled(
            outcomes.flatMap((outcome) => {
              const row = rowOf.get(outcome.id);
              return row ? [{ ledgerId: outcome.id, provider: deps.provider, status: outcome.status, gone: outcome.gone !== undefined, event: row.event }] : [];
            }),
          );
        },
        batchSize,
        batchesInFlight: settings.batchesInFlight,
        leaseSeconds: settings.leaseSeconds,
        sweepSeconds: settings.sweepSeconds,
        room: { acquire: () => this.#room.acquire(true), release: () => this.#room.release() },
      },
      deps.log,
    );
    control.listen(() => this.#queue.wake());
  }

  get queueName(): string {
    return this.#queue.name;
  }

  /** Sends at a rate of its own: its rows wait in the ledger for their slots, never taken over. */
  get rated(): boolean {
    return this.#deps.control.ratePerSecond > 0;
  }

  get control(): LaneControl {
    return this.#deps.control;
  }

  notify(trx: Knex.Transaction): Promise<void> {
    return this.#queue.notify(trx);
  }

  wake(): void {
    this.#queue.wake();
  }

  drain(): Promise<void> {
    return this.#queue.drain();
  }

  /** Waits for the batches taken over, then drains what is left. */
  async settle(): Promise<void> {
    while (this.#takeOvers.size > 0) await Promise.all(this.#takeOvers);
    await this.#queue.settle();
  }

  /**
   * Room for a batch claimed already leased under `token` (a take-over),
   * now or not at all: none for a lane with a rate (its rows wait for their
   * slots) or paused (they wait for its end).
   */
  tryTakeOver(token: string): LaneSlot | undefined {
    if (!this.#mayTakeOver() || !this.#room.tryAcquire()) return undefined;
    return this.#slot(token);
  }

  /**
   * Waits for room for a batch claimed already leased (a fan-out page), after
   * the rows already waiting in the lane (the lease loop asks first): the
   * fan-out claims no faster than the lane sends. Undefined for a lane that
   * takes nothing over (rate, pause): its rows are claimed waiting at once.
   */
  async takeOver(token: string): Promise<LaneSlot | undefined> {
    if (!this.#mayTakeOver()) return undefined;
    await this.#room.acquire(false);
    return this.#slot(token);
  }

  /** Works rows its caller leased under `token` (deliver now) and waits for their outcomes. */
  work(rows: readonly LeasedDelivery[], token: string): Promise<readonly SettledDelivery[]> {
    return this.#queue.work(rows, token);
  }

  #mayTakeOver(): boolean {
    return !this.rated && this.#deps.control.pausedForMs() === 0;
  }

  #slot(token: string): LaneSlot {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#room.release();
    };
    return {
      release,
      run: (claims) => {
        const running: Promise<void> = this.#takeOver(claims, token)
          .catch((err: unknown) => this.#deps.log.error({ err, provider: this.provider }, 'a taken-over batch failed; its rows are retaken after their lease'))
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
    const { db, events } = this.#deps;
    // Read again after the commit, as a lease reads them: a subscription stopped since its claim gets nothing.
    const active = await activeAmong(
      db,
      claims.map((claim) => Number(claim.subscription.id)),
    );
    const rows: LeasedRow[] = claims.map(({ ledgerId, eventId, replaces, subscription }) => ({
      ledgerId,
      eventId,
      attempt: 1,
      replaces,
      subscription: { ...subscription, preferences: subscription.preferences ?? {}, is_active: active.has(Number(subscription.id)) },
    }));
    await this.#queue.work(await withEvents(db, events, rows), token);
  }

  async #work(leased: readonly LeasedDelivery[], signal: AbortSignal, token: string): Promise<SettledDelivery[]> {
    const now = this.#deps.now?.() ?? new Date();
    const outcomes: SettledDelivery[] = [];
    const rows: LeasedDelivery[] = [];
    const rendering = this.#deps.rendering;
    const spoken = this.#deps.target?.languages?.();
    const active = leased.filter((row) => row.subscription.is_active);
    const asking = (await this.#deps.confirmations?.ask(active)) ?? new Map<number, number>();
    for (const row of leased) {
      if (!row.subscription.is_active) outcomes.push({ id: row.ledgerId, status: 'failed', retryInSeconds: null, error: 'subscription is no longer active' });
      else {
        const preferences = inLanguageOf(row.subscription.preferences, spoken);
        let rendered = rendering ? rendering.forSubscriber(row.eventId, row.event, row.rendered, preferences, row.missed) : row.rendered;
        const invite = this.#deps.invite?.({ ledgerId: row.ledgerId, event: row.event, language: preferences?.language });
        if (invite) rendered = { ...rendered, body: `${rendered.body}\n\n${invite}` };
        const confirmationId = asking.get(row.ledgerId);
        const asks = confirmationId === undefined ? null : this.#deps.confirmations!.line(confirmationId, preferences?.language);
        if (asks) rendered = { ...rendered, body: `${rendered.body}\n\n${asks}` };
        const confirm = confirmationId === undefined ? {} : { confirm: true, ...(asks ? { asks } : {}) };
        rows.push(rendered === row.rendered && confirmationId === undefined ? row : { ...row, rendered, ...confirm });
      }
    }
    if (rows.length === 0) return outcomes;
    const target = this.#deps.target;
    if (target?.enqueue) return outcomes.concat(await this.#enqueue(target, rows, token, now));
    if (!target?.deliver) {
      return outcomes.concat(rows.map((row) => this.#judge(row, { kind: 'failed', reason: `no delivery target for provider ${this.provider}` }, now)));
    }
    return outcomes.concat(await this.#deliver(target, rows, signal, token, now));
  }

  /**
   * A transactional target takes its rows in one transaction with their
   * move to `queued`: all or none. When that fails the rows are judged as a
   * transient failure of this attempt (retried after the backoff).
   */
  async #enqueue(target: DeliveryTarget, rows: readonly LeasedDelivery[], token: string, now: Date): Promise<SettledDelivery[]> {
    try {
      await this.#deps.db.transaction(async (trx) => {
        const queued = await markQueued(
          trx,
          token,
          rows.map((row) => row.ledgerId),
        );
        if (queued !== rows.length) throw new Error(`${rows.length - queued} of ${rows.length} rows are no longer this batch's`);
        await target.enqueue!(trx, rows.map(toRequest));
      });
      return rows.map((row) => ({ id: row.ledgerId, status: 'queued', retryInSeconds: null, error: null }));
    } catch (err) {
      this.#deps.log.error({ err, provider: this.provider, batch: rows.length }, 'delivery target could not take the batch; it will be retried');
      return rows.map((row) => this.#judge(row, { kind: 'retry', reason: `target error: ${(err as Error).message}` }, now));
    }
  }

  /**
   * A direct target's batch, in groups as the lane's window frees (at its
   * slots when the lane has a rate): each outcome is judged and recorded as
   * it comes (settle-as-you-go, small groups). What was never handed to the
   * peer (the lane paused, or the service is stopping) waits again, its
   * attempt not counted.
   */
  async #deliver(target: DeliveryTarget, rows: readonly LeasedDelivery[], signal: AbortSignal, token: string, now: Date): Promise<SettledDelivery[]> {
    const { control } = this.#deps;
    const judged = new Array<MutableSettled | undefined>(rows.length);
    const early = new SettleAsYouGo((group) => settleLeased(this.#deps.db, token, group));
    const gone = new Set<number>();
    const record = (index: number, outcome: DeliveryOutcome): boolean => {
      const row = rows[index];
      if (judged[index] !== undefined || row === undefined) return false;
      // A step's destination is not the subscription's: its peer's word stops nothing.
      if (outcome.kind === 'failed' && outcome.gone && !row.subscription.escalation_step) gone.add(row.subscription.id);
      if (outcome.kind === 'slowDown' && outcome.scope !== 'delivery') this.#pause(outcome.retryAfterSeconds, outcome.reason);
      judged[index] = this.#judge(row, outcome, now);
      early.add(judged[index]);
      return true;
    };
    const handed: Array<Promise<void>> = [];
    const stopped = () => signal.aborted || control.pausedForMs() > 0;
    let next = 0;
    while (next < rows.length && !stopped()) {
      const left = rows.length - next;
      const fewest = this.rated ? 1 : Math.min(left, Math.max(1, Math.floor((this.#deps.target?.concurrency?.() ?? DEFAULT_CONCURRENCY) / 4)));
      const taken = await this.#window.take(fewest, left);
      if (stopped()) {
        this.#window.give(taken);
        break;
      }
      const group = Array.from({ length: taken }, (_, k) => next + k);
      if (!this.rated) {
        next += taken;
        handed.push(this.#hand(target, rows, group, signal, record));
        continue;
      }
      const slots = await this.#slots(taken);
      if (!slots) {
        this.#window.give(taken);
        break;
      }
      next += taken;
      handed.push(this.#handAtSlots(target, rows, group, slots, signal, record));
    }
    await Promise.all(handed);
    const wait = control.pausedForMs() / 1000;
    const why = signal.aborted ? 'not sent: the service is stopping, or the lease ran out' : `not sent: the ${this.provider} lane is paused`;
    rows.forEach((row, index) => {
      if (judged[index] === undefined) {
        judged[index] = deferred(row.ledgerId, wait, why);
        early.add(judged[index]);
      }
    });
    const recorded = await early.finish().then(
      () => true,
      (err: unknown) => {
        this.#deps.log.warn({ err, provider: this.provider }, 'recording outcomes early failed; they are recorded with the batch');
        return false;
      },
    );
    await this.#stopGone([...gone]);
    // The rows recorded early are marked so (the batch's settle skips them).
    return judged.map((settled) => {
      settled!.recorded = recorded;
      return settled!;
    });
  }

  /** The subscriptions whose destination is gone stop (a failure here is logged: the deliveries are recorded all the same). */
  async #stopGone(subscriptionIds: readonly number[]): Promise<void> {
    if (subscriptionIds.length === 0 || !this.#deps.stopGone) return;
    try {
      await this.#deps.stopGone(subscriptionIds);
      this.#deps.log.info({ provider: this.provider, subscriptions: subscriptionIds.length }, 'destinations gone: their subscriptions stopped');
    } catch (err) {
      this.#deps.log.warn({ err, provider: this.provider }, 'stopping subscriptions whose destination is gone failed; their next delivery tries again');
    }
  }

  /** Hands one group to the target; each outcome it reports frees its place in the window. */
  async #hand(
    target: DeliveryTarget,
    rows: readonly LeasedDelivery[],
    group: readonly number[],
    signal: AbortSignal,
    record: (index: number, outcome: DeliveryOutcome) => boolean,
  ): Promise<void> {
    const requests = group.map((index) => toRequest(rows[index]!));
    let results: readonly DeliveryOutcome[];
    try {
      results = await target.deliver!(requests, signal, (k, outcome) => {
        if (group[k] !== undefined && record(group[k], outcome)) this.#window.give(1);
      });
      if (results.length !== requests.length) throw new Error(`target ${this.provider} returned ${results.length} outcomes for ${requests.length} requests`);
    } catch (err) {
      this.#deps.log.error({ err, provider: this.provider, batch: requests.length }, 'delivery target threw; the batch will be retried');
      results = requests.map(() => ({ kind: 'retry', reason: `target error: ${(err as Error).message}` }));
    }
    group.forEach((index, k) => {
      if (record(index, results[k]!)) this.#window.give(1);
    });
  }

  /** Hands a group at its send slots, a tick's worth at a time; what a pause or a shutdown reaches first is left unsent. */
  async #handAtSlots(
    target: DeliveryTarget,
    rows: readonly LeasedDelivery[],
    group: readonly number[],
    slots: readonly number[],
    signal: AbortSignal,
    record: (index: number, outcome: DeliveryOutcome) => boolean,
    lateness = 0,
  ): Promise<void> {
    const ticks: Array<{ first: number; at: number; indexes: number[] }> = [];
    group.forEach((index, k) => {
      const tick = ticks.at(-1);
      if (tick && slots[k]! - tick.first < SLOT_TICK_MS) {
        tick.indexes.push(index);
        tick.at = slots[k]!;
      } else ticks.push({ first: slots[k]!, at: slots[k]!, indexes: [index] });
    });
    const { control } = this.#deps;
    const base = performance.now();
    await Promise.all(
      ticks.map(async (tick) => {
        await waitFor(base + tick.at - performance.now(), signal);
        if (signal.aborted || control.pausedForMs() > 0) {
          this.#window.give(tick.indexes.length);
          return;
        }
        // A slot missed (this process was held up past it) is a slot lost: sent now, it would go out together with
        // the next ones, and the peer would see more than the rate in a second. Its sends take new slots instead.
        if (performance.now() - (base + tick.first) > control.lateAfterMs() && lateness < MAX_SLOT_RETAKES) {
          const again = await this.#slots(tick.indexes.length);
          if (!again) return void this.#window.give(tick.indexes.length);
          this.#deps.log.debug({ provider: this.provider, sends: tick.indexes.length }, 'send slots missed; new ones taken');
          await this.#handAtSlots(target, rows, tick.indexes, again, signal, record, lateness + 1);
          return;
        }
        await this.#hand(target, rows, tick.indexes, signal, record);
      }),
    );
  }

  /**
   * Send slots from the shared rate, or null when there are none now: the
   * lane is paused, or the database did not answer (logged). Never throws:
   * what is not handed waits again, its attempt not counted.
   */
  async #slots(count: number): Promise<number[] | null> {
    try {
      return await this.#deps.control.slots(count);
    } catch (err) {
      this.#deps.log.warn({ err, provider: this.provider }, 'send slots not taken (the database did not answer); the rows wait again');
      return null;
    }
  }

  /** Pauses the lane everywhere, once for a burst of answers that all say so. */
  #pause(retryAfterSeconds: number | undefined, because: string): void {
    if (this.#pausing) return;
    this.#pausing = this.#deps.control
      .pause(retryAfterSeconds, because)
      .catch((err: unknown) => this.#deps.log.warn({ err, provider: this.provider }, "could not record the lane's pause"))
      .finally(() => {
        this.#pausing = undefined;
      });
  }

  #judge(row: LeasedDelivery, outcome: DeliveryOutcome, now: Date): MutableSettled {
    return judgeDelivery(row.ledgerId, row.attempt, outcome, now, (this.#deps.random ?? Math.random)(), this.#deps.settings.retry);
  }
}

/** Resolves after `ms` (at once for 0 or less), or as soon as `signal` aborts. */
function waitFor(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
