/** What one item of a batch came to: its value, or the error that is its alone (a refusal). */
export type ItemOutcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface GroupCommitOptions {
  /** Items written together at most. */
  maxBatch: number;
  /** Batches written at once (each holds a database connection while it runs). */
  concurrency: number;
}

interface Waiting<I, R> {
  item: I;
  resolve(value: R): void;
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
 * again on its own (all at once), so one bad item fails only its own
 * caller.
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

  async #run(batch: Array<Waiting<I, R>>): Promise<void> {
    let outcomes: Array<ItemOutcome<R>>;
    try {
      outcomes = await this.#write(batch.map((waiting) => waiting.item));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // At once, not one after another: when the database itself is down, every caller learns it in one timeout, as alone.
      await Promise.all(batch.map((waiting) => this.#run([waiting])));
      return;
    }
    batch.forEach((waiting, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) waiting.resolve(outcome.value);
      else waiting.reject(outcome.error);
    });
  }
}
