/**
 * Room for a lane's batches in flight, shared by its lease loop and the
 * fan-out that takes pages over: a batch asks for room before it is
 * leased or claimed. The lease loop asks first (`urgent`), so rows already
 * waiting (urgent ones first, by the lease's order) go before the next
 * page of a big fan-out.
 */
export class LaneRoom {
  readonly limit: number;
  #active = 0;
  readonly #first: Array<() => void> = [];
  readonly #then: Array<() => void> = [];

  constructor(limit: number) {
    this.limit = Math.max(1, limit);
  }

  async acquire(urgent: boolean): Promise<void> {
    if (this.tryAcquire()) return;
    await new Promise<void>((resolve) => (urgent ? this.#first : this.#then).push(resolve));
  }

  tryAcquire(): boolean {
    if (this.#active >= this.limit) return false;
    this.#active += 1;
    return true;
  }

  release(): void {
    const next = this.#first.shift() ?? this.#then.shift();
    if (next) next();
    else if (this.#active > 0) this.#active -= 1;
    else throw new Error('LaneRoom.release() without a matching acquire');
  }
}
