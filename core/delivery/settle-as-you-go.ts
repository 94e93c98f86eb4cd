import type { SettledDelivery } from './delivery-outcome.ts';

/**
 * Records a batch's outcomes in small groups while the batch is still on
 * the wire: a group goes out when it holds `groupSize` outcomes or has
 * waited `maxDelayMs`, one set-based statement each, at most one at a time.
 * So a process that dies mid-batch leaves few sends unrecorded (they are
 * the only ones a successor sends again).
 */
export class SettleAsYouGo {
  readonly #settle: (outcomes: readonly SettledDelivery[]) => Promise<unknown>;
  readonly #groupSize: number;
  readonly #maxDelayMs: number;
  #buffer: SettledDelivery[] = [];
  #timer: NodeJS.Timeout | undefined;
  #chain: Promise<void> = Promise.resolve();
  #failure: unknown;

  constructor(settle: (outcomes: readonly SettledDelivery[]) => Promise<unknown>, groupSize = 250, maxDelayMs = 100) {
    this.#settle = settle;
    this.#groupSize = groupSize;
    this.#maxDelayMs = maxDelayMs;
  }

  add(outcome: SettledDelivery): void {
    this.#buffer.push(outcome);
    if (this.#buffer.length >= this.#groupSize) this.#send();
    else this.#timer ??= setTimeout(() => this.#send(), this.#maxDelayMs);
  }

  /** Records what is left and waits for every group; rethrows the first failure. */
  async finish(): Promise<void> {
    this.#send();
    await this.#chain;
    if (this.#failure !== undefined) throw this.#failure;
  }

  #send(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#buffer.length === 0) return;
    const group = this.#buffer;
    this.#buffer = [];
    this.#chain = this.#chain
      .then(() => this.#settle(group))
      .then(
        () => undefined,
        (error: unknown) => void (this.#failure ??= error),
      );
  }
}
