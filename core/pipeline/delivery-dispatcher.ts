import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import type { DeliveryOutcome, DeliveryRequest, DeliveryTarget } from '../plugin-api/delivery-types.ts';
import type { RenderedNotification } from '../plugin-api/feed-types.ts';
import { leaseDueDeliveries, recordOutcomes, type LeasedDelivery, type RecordedOutcome } from './ledger-repository.ts';
import { toRecipient } from './recipient.ts';
import { nextAttemptAt, type RetrySettings } from './retry-policy.ts';

export interface DispatcherDependencies {
  db: Knex;
  targets: ReadonlyMap<string, DeliveryTarget>;
  log: FastifyBaseLogger;
  batchSize: number;
  retry: RetrySettings;
  /** How long a leased row is ours; a dead instance's rows are due again after it. */
  leaseSeconds?: number;
  now?: () => Date;
  random?: () => number;
}

const toRequest = (row: LeasedDelivery): DeliveryRequest => ({
  ledgerId: Number(row.ledger_id),
  attempt: Number(row.attempts),
  subscription: toRecipient(row.subscription_id, row),
  event: { feedId: row.feed_id, eventType: row.event_type, sourceKey: row.source_key, itemKey: row.item_key, fields: row.fields, sourcePayload: row.payload },
  rendered: row.rendered as unknown as RenderedNotification,
});

/**
 * Delivers claimed ledger rows through direct targets: leases a bounded
 * batch (SKIP LOCKED, safe with several instances), calls each target once
 * per batch, and records every outcome set-based. Retries wait in the
 * ledger (status retrying, next_attempt_at), so they survive restarts.
 */
export class DeliveryDispatcher {
  readonly #deps: DispatcherDependencies;
  readonly #abort = new AbortController();
  #draining: Promise<void> | null = null;
  #again = false;

  constructor(deps: DispatcherDependencies) {
    this.#deps = deps;
  }

  /** New work was committed: drain soon, in the background. */
  wake(): void {
    if (this.#abort.signal.aborted) return;
    if (this.#draining) {
      this.#again = true;
      return;
    }
    this.#draining = this.drain()
      .then(() => undefined)
      .catch((err: unknown) => this.#deps.log.error({ err }, 'delivery dispatch failed; the next sweep retries'))
      .finally(() => {
        this.#draining = null;
        if (this.#again) {
          this.#again = false;
          this.wake();
        }
      });
  }

  /** Delivers every due row, batch after batch, until none is left or shutdown. Returns how many were delivered. */
  async drain(signal: AbortSignal = this.#abort.signal): Promise<number> {
    let delivered = 0;
    while (!signal.aborted && !this.#abort.signal.aborted) {
      const batch = await leaseDueDeliveries(this.#deps.db, { limit: this.#deps.batchSize, leaseSeconds: this.#deps.leaseSeconds ?? 30 });
      if (batch.length === 0) break;
      delivered += await this.#deliver(batch);
      if (batch.length < this.#deps.batchSize) break;
    }
    return delivered;
  }

  /** Waits for a drain already under way (a wake-up), then drains what is left: everything due is handled when it resolves. */
  async settle(): Promise<void> {
    while (this.#draining) await this.#draining;
    await this.drain();
  }

  /** Delivers exactly these rows now (when due) and waits: /test, announcements, tests. */
  async deliverNow(ledgerIds: readonly number[]): Promise<number> {
    let delivered = 0;
    for (let start = 0; start < ledgerIds.length; start += this.#deps.batchSize) {
      const ids = ledgerIds.slice(start, start + this.#deps.batchSize);
      const batch = await leaseDueDeliveries(this.#deps.db, { limit: ids.length, leaseSeconds: this.#deps.leaseSeconds ?? 30, onlyIds: ids });
      delivered += await this.#deliver(batch);
    }
    return delivered;
  }

  /**
   * Aborts the signal targets get and waits for the drain under way, at
   * most `graceMs`: a target that ignores the signal must not hold up
   * shutdown (its leased rows are taken over after the lease).
   */
  async stop(graceMs = 10_000): Promise<void> {
    this.#abort.abort();
    if (!this.#draining) return;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = await Promise.race([
      this.#draining.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (gaveUp) this.#deps.log.warn('shutdown: a delivery batch was still running after the grace period; its rows are retaken after their lease');
  }

  async #deliver(batch: readonly LeasedDelivery[]): Promise<number> {
    const now = this.#deps.now?.() ?? new Date();
    const outcomes: RecordedOutcome[] = [];
    const byProvider = new Map<string, LeasedDelivery[]>();
    for (const row of batch) {
      if (!row.is_active) {
        outcomes.push({ id: Number(row.ledger_id), status: 'failed', nextAttemptAt: null, error: 'subscription is no longer active' });
        continue;
      }
      byProvider.set(row.provider, [...(byProvider.get(row.provider) ?? []), row]);
    }
    await Promise.all(
      [...byProvider].map(async ([provider, rows]) => {
        const results = await this.#deliverThrough(provider, rows);
        rows.forEach((row, index) => outcomes.push(this.#toRecorded(row, results[index], now)));
      }),
    );
    await recordOutcomes(this.#deps.db, outcomes);
    const failed = outcomes.filter((outcome) => outcome.status === 'failed').length;
    if (failed > 0) this.#deps.log.warn({ failed, batch: batch.length }, 'deliveries failed for good (recorded in the ledger)');
    return outcomes.filter((outcome) => outcome.status === 'delivered').length;
  }

  async #deliverThrough(provider: string, rows: readonly LeasedDelivery[]): Promise<DeliveryOutcome[]> {
    const target = this.#deps.targets.get(provider);
    if (!target?.deliver) return rows.map(() => ({ kind: 'failed', reason: `no direct delivery target for provider ${provider}` }));
    try {
      const results = await target.deliver(rows.map(toRequest), this.#abort.signal);
      if (results.length !== rows.length) throw new Error(`target ${provider} returned ${results.length} outcomes for ${rows.length} requests`);
      return results;
    } catch (err) {
      this.#deps.log.error({ err, provider, batch: rows.length }, 'delivery target threw; the batch will be retried');
      return rows.map(() => ({ kind: 'retry', reason: `target error: ${(err as Error).message}` }));
    }
  }

  #toRecorded(row: LeasedDelivery, outcome: DeliveryOutcome, now: Date): RecordedOutcome {
    const id = Number(row.ledger_id);
    if (outcome.kind === 'delivered') return { id, status: 'delivered', nextAttemptAt: null, error: null };
    if (outcome.kind === 'failed') return { id, status: 'failed', nextAttemptAt: null, error: outcome.reason };
    const next = nextAttemptAt(Number(row.attempts), now, this.#deps.random?.() ?? Math.random(), this.#deps.retry, outcome.notBefore);
    return next
      ? { id, status: 'retrying', nextAttemptAt: next, error: outcome.reason }
      : { id, status: 'failed', nextAttemptAt: null, error: `gave up after ${row.attempts} attempts: ${outcome.reason}` };
  }
}
