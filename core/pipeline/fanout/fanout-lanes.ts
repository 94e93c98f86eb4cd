import type { Knex } from 'knex';
import type { FanoutExpander } from './fanout-expander.ts';
import { continueFanouts } from './fanout-store.ts';

/**
 * Every lane's fan-out expander: an event whose subscribers did not fit
 * the hand-over's first page goes on in each lane from the same cursor,
 * each at its own lane's pace.
 */
export class FanoutLanes {
  readonly #expanders: readonly FanoutExpander[];
  readonly #leaseSeconds: number;

  constructor(expanders: readonly FanoutExpander[], leaseSeconds: number) {
    this.#expanders = expanders;
    this.#leaseSeconds = leaseSeconds;
  }

  queueNames(): string[] {
    return this.#expanders.map((expander) => expander.queueName);
  }

  /**
   * Inside the hand-over's transaction: these events continue after
   * `cursor` in every lane. Without a token the expanders wake on every
   * instance once it commits; with one, the caller keeps them (expandNow)
   * and waits.
   */
  async continueAfter(trx: Knex.Transaction, eventIds: readonly number[], cursor: number, keepFor?: string): Promise<void> {
    const providers = this.#expanders.map((expander) => expander.provider);
    await continueFanouts(trx, eventIds, providers, cursor, keepFor === undefined ? undefined : { token: keepFor, seconds: this.#leaseSeconds });
    if (keepFor === undefined) for (const expander of this.#expanders) await expander.notify(trx);
  }

  /** Expands, in every lane, the events a hand-over kept under `token`, and waits; returns what was claimed. */
  async expandNow(token: string): Promise<{ claimedIds: number[]; matched: number }> {
    const parts = await Promise.all(this.#expanders.map((expander) => expander.expandNow(token)));
    return { claimedIds: parts.flatMap((part) => part.claimedIds), matched: parts.reduce((n, part) => n + part.matched, 0) };
  }

  /** Waits until every lane's fan-out under way (and due) is claimed. */
  async settle(): Promise<void> {
    await Promise.all(this.#expanders.map((expander) => expander.settle()));
  }
}
