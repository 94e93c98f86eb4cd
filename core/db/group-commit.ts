/**
 * What one item of a batch came to: its value (or a promise of it, for an
 * item the batch hands on to be written by other means), or the error that
 * is its alone (a refusal).
 */
export type ItemOutcome<R> = { ok: true; value: R | PromiseLike<R> } | { ok: false; error: unknown };

export interface GroupCommitOptions {
  /** Items written together at most. */
  maxBatch: number;
  /** Batches written at once (each holds a database connection while it runs). */
  concurrency: number;
  /**
   * Whether a batch that failed as a whole with this error is worth writing
   * again item by item: yes when one item may be the cause, no when the
   * database itself failed (each item would only wait for the same
   * failure again: then the callers waiting behind the batch get the
   * error too). Every error by default.
   */
  retryAlone?: (error: unknown) => boolean;
}

interface Waiting<I, R> {
  item: I;
  resolve(value: R | PromiseLike<R>): void;
  reject(error: unknown): void;
}

/**
 * Group commit: each caller submits one item; the items that arrive while
 * a batch is being written wait and go together in the next one. An idle
 * writer starts at once, so a lone caller waits no longer than it would
 * alone; under load, many callers share one transaction and its round
 * trips.
 *
 * `write` returns one outcome per item, in order. When it throws instead
 * (the transaction failed as a whole), each item of the batch is written
 * again on its own, one after another, so one bad item fails only its own
 * caller; unless `retryAlone` says the error is not an item's, and then
 * every caller of the batch, and every caller waiting behind it, gets it at
 * once.
 */
export class GroupCommit<I, R> {
  readonly #write: (items: I[]) => Promise<Array<ItemOutcome<R>>>;
  readonly #options: GroupCommitOptions;
  readonly #waiting: Array<Waiting<I, R>> = [];
  #running = 0;

  constructor(write: (items: I[]) => Promise<Array<ItemOutcome<R>>>, options: GroupCommitOptions) {
    this.#write = write;
    this.#options = options;
  }

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#running < this.#options.concurrency && this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0, this.#options.maxBatch);
      this.#running += 1;
      void this.#run(batch).finally(() => {
        this.#running -= 1;
        this.#pump();
      });
    }
  }

  /** Settles every caller of the batch, whatever happens; never rejects. */
  async #run(batch: Array<Waiting<I, R>>): Promise<void> {
    let outcomes: Array<ItemOutcome<R>>;
    try {
      outcomes = await this.#write(batch.map((waiting) => waiting.item));
      if (outcomes.length !== batch.length) throw new Error(`group commit: ${outcomes.length} outcomes for ${batch.length} items`);
    } catch (error) {
      if (!(this.#options.retryAlone?.(error) ?? true)) {
        // The database's failure, not an item's: those waiting behind this batch would only wait for it again.
        for (const waiting of [...batch, ...this.#waiting.splice(0)]) waiting.reject(error);
        return;
      }
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const waiting of batch) await this.#run([waiting]);
      return;
    }
    batch.forEach((waiting, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) waiting.resolve(outcome.value);
      else waiting.reject(outcome.error);
    });
  }
}
