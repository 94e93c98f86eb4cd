import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import type { LedgerAccess } from '#plugin-api';
import type { EmailComposer } from './email-composer.ts';
import { attemptsExhausted, nextState, type RetrySettings, type SendResult } from './outbox-policy.ts';
import { claimDueItems, dropItems, nextDueAt, recordResults, renewLease, type ClaimedItem, type ItemResult } from './outbox-repository.ts';
import type { SmtpSender } from './smtp-sender.ts';

export interface OutboxWorkerDependencies {
  db: Knex;
  log: FastifyBaseLogger;
  sender: SmtpSender;
  composer: EmailComposer;
  ledger: LedgerAccess;
  batchSize: number;
  leaseSeconds: number;
  intervalSeconds: number;
  retry: RetrySettings;
  now: () => Date;
  random?: () => number;
}

type Attempt = { item: ClaimedItem } & ({ result: ItemResult } | { drop: true });
interface Tally {
  claimed: number;
  sent: number;
  failed: number;
  dead: number;
  dropped: number;
  unrecorded: number;
  firstError: string | null;
}

const MIN_TIMER_MS = 1000;
const BATCHES_IN_FLIGHT = 2;

/**
 * Drains the outbox: claims a bounded batch (SKIP LOCKED, with a lease kept
 * alive while it sends), sends it over the pooled transport, records every
 * result and the ledger outcome together, and goes on while batches come
 * back full. Drains never overlap: a wake-up during one asks for another
 * pass after it. Between sweeps a timer wakes it when the next retry or
 * lapsed lease falls due, so a backoff of 30 s is not stretched to the
 * sweep period and a dead instance's items are taken over soon after their
 * lease.
 */
export class OutboxWorker {
  readonly #deps: OutboxWorkerDependencies;
  #loop: Promise<void> | null = null;
  #requested = false;
  #stopped = false;
  #wakeable = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(deps: OutboxWorkerDependencies) {
    this.#deps = deps;
  }

  /** Wake-ups start drains only on an instance that runs the outbox worker (not in `npm run migrate`). */
  enableWakeUps(): void {
    this.#wakeable = true;
  }

  /** New work was committed, here or (NOTIFY) on another instance: drain soon, in the background. */
  wake(): void {
    if (!this.#wakeable || this.#stopped) return;
    void this.drain();
  }

  /** Drains until nothing is due; resolves when a pass that started after this call has ended. Never rejects. */
  drain(): Promise<void> {
    this.#requested = true;
    this.#loop ??= this.#run().finally(() => {
      this.#loop = null;
    });
    return this.#loop;
  }

  /** No new batch after the current one. */
  halt(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  async stop(): Promise<void> {
    this.halt();
    await this.#loop;
  }

  async #run(): Promise<void> {
    while (this.#requested && !this.#stopped) {
      this.#requested = false;
      try {
        await this.#drainOnce();
      } catch (err) {
        this.#deps.log.error({ err }, 'email outbox drain failed; the next sweep tries again');
      }
    }
    if (!this.#stopped) await this.#armTimer().catch((err: unknown) => this.#deps.log.warn({ err }, 'email outbox: next due time unknown'));
  }

  /**
   * Batch after batch while they come back full. Two batches are in flight
   * at once: the next is claimed and queued on the SMTP pool while the
   * previous one's last messages go out and its results are recorded, so
   * the connections never idle through a database round trip.
   */
  async #drainOnce(): Promise<void> {
    // Without a relay nothing is claimed: the items wait, pending, instead of using up their attempts.
    if (!this.#deps.sender.configured) return;
    const tally: Tally = { claimed: 0, sent: 0, failed: 0, dead: 0, dropped: 0, unrecorded: 0, firstError: null };
    const inFlight = new Set<Promise<void>>();
    let failure: unknown;
    try {
      while (!this.#stopped && failure === undefined) {
        const claim = await this.#claim();
        if (claim.batch.length === 0) break;
        tally.claimed += claim.batch.length;
        const sending: Promise<void> = this.#sendAndRecord(claim, tally)
          .catch((err: unknown) => void (failure ??= err))
          .finally(() => inFlight.delete(sending));
        inFlight.add(sending);
        if (claim.batch.length < this.#deps.batchSize) break;
        if (inFlight.size >= BATCHES_IN_FLIGHT) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
    } finally {
      this.#logPass(tally);
    }
    if (failure !== undefined) throw failure;
  }

  /** One line per drain, not per message or batch: a relay outage or a big fan-out must not flood the log. */
  #logPass({ firstError, ...counts }: Tally): void {
    if (counts.claimed === 0) return;
    const fields = { ...counts, ...(firstError ? { firstError } : {}) };
    if (counts.failed + counts.dead + counts.unrecorded > 0) this.#deps.log.warn(fields, 'email outbox drained; some emails not sent');
    else this.#deps.log.info(fields, 'email outbox drained');
  }

  async #claim(): Promise<{ claimToken: string; batch: ClaimedItem[] }> {
    const claimToken = randomUUID();
    const batch = await claimDueItems(this.#deps.db, { limit: this.#deps.batchSize, claimToken, leaseUntil: this.#leaseEnd(), now: this.#deps.now() });
    return { claimToken, batch };
  }

  #leaseEnd(): Date {
    return new Date(this.#deps.now().getTime() + this.#deps.leaseSeconds * 1000);
  }

  async #sendAndRecord({ claimToken, batch }: { claimToken: string; batch: ClaimedItem[] }, tally: Tally): Promise<void> {
    const heartbeat = setInterval(() => {
      renewLease(this.#deps.db, claimToken, this.#leaseEnd()).catch((err: unknown) => this.#deps.log.warn({ err }, 'email outbox lease renewal failed'));
    }, (this.#deps.leaseSeconds * 1000) / 3);
    heartbeat.unref();
    let attempts: Attempt[];
    try {
      attempts = await Promise.all(batch.map((item) => this.#attempt(item)));
    } finally {
      clearInterval(heartbeat);
    }
    await this.#record(claimToken, attempts, tally);
  }

  async #attempt(item: ClaimedItem): Promise<Attempt> {
    const { retry, now } = this.#deps;
    if (attemptsExhausted(item.attempt, retry)) {
      return { item, result: { id: item.id, state: 'dead', dueAt: null, error: `lease lapsed during attempt ${item.attempt - 1} of ${retry.maxAttempts} (a crash?)` } };
    }
    // Unsubscribed (or the subscription stopped) after this email was queued: it is not sent.
    if (item.kind === 'notification' && !item.subscriptionActive) return { item, drop: true };
    let outcome: SendResult;
    try {
      const composed = await this.#deps.composer.compose(item);
      outcome = await this.#deps.sender.send({
        ...composed,
        to: item.recipient,
        subject: item.subject,
        messageId: `<email-outbox-${item.id}@${this.#deps.sender.fromDomain}>`,
      });
    } catch (err) {
      // Composing failed (a template fault): transient, so a fix and a restart still send it.
      this.#deps.log.error({ err, outboxId: item.id }, 'email could not be composed');
      outcome = { kind: 'rejected', permanent: false, reason: 'message could not be composed' };
    }
    const next = nextState(item.attempt, outcome, now(), this.#deps.random?.() ?? Math.random(), retry);
    return {
      item,
      result: {
        id: item.id,
        state: next.state,
        dueAt: next.state === 'failed' ? next.dueAt : null,
        error: next.state === 'sent' ? null : next.error,
      },
    };
  }

  /** The outbox rows and the ledger rows they settle, in one transaction. */
  async #record(claimToken: string, attempts: readonly Attempt[], tally: Tally): Promise<void> {
    const results = attempts.flatMap((a) => ('result' in a ? [a] : []));
    const dropped = attempts.flatMap((a) => ('drop' in a ? [a.item] : []));
    const now = this.#deps.now();
    // Counted here and added to the drain's tally only once the transaction commits.
    const counted: Tally = { claimed: 0, sent: 0, failed: 0, dead: 0, dropped: 0, unrecorded: 0, firstError: null };
    await this.#deps.db.transaction(async (trx) => {
      const recorded = await recordResults(trx, claimToken, results.map((a) => a.result), now);
      const droppedIds = await dropItems(trx, claimToken, dropped.map((item) => item.id));
      const outcomes: Array<{ ledgerId: number; kind: 'delivered' | 'failed'; reason?: string }> = [];
      for (const { item, result } of results) {
        // Taken over after a lapsed lease, or deleted with its subscription: no longer this claim's to record.
        if (!recorded.has(item.id)) {
          counted.unrecorded++;
          continue;
        }
        counted[result.state]++;
        if (result.state !== 'sent') counted.firstError ??= result.error;
        if (item.ledgerId === null || result.state === 'failed') continue;
        outcomes.push(
          result.state === 'sent'
            ? { ledgerId: item.ledgerId, kind: 'delivered' }
            : { ledgerId: item.ledgerId, kind: 'failed', reason: `email dead: ${result.error}` },
        );
      }
      for (const item of dropped) {
        if (!droppedIds.has(item.id)) continue;
        counted.dropped++;
        if (item.ledgerId !== null) outcomes.push({ ledgerId: item.ledgerId, kind: 'failed', reason: 'subscription is no longer active' });
      }
      await this.#deps.ledger.recordQueuedOutcomes(outcomes, trx);
    });
    for (const key of ['sent', 'failed', 'dead', 'dropped', 'unrecorded'] as const) tally[key] += counted[key];
    tally.firstError ??= counted.firstError;
  }

  async #armTimer(): Promise<void> {
    clearTimeout(this.#timer);
    if (!this.#wakeable || !this.#deps.sender.configured) return;
    const due = await nextDueAt(this.#deps.db);
    if (!due || this.#stopped) return;
    const delay = due.getTime() - this.#deps.now().getTime();
    if (delay >= this.#deps.intervalSeconds * 1000) return;
    this.#timer = setTimeout(() => this.wake(), Math.max(MIN_TIMER_MS, delay));
    this.#timer.unref();
  }
}
