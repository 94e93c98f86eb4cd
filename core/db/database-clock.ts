import type { Knex } from 'knex';

/** How often the clock's distance from the database's is measured again. */
const RESYNC_MS = 60_000;

/**
 * The service's clock, following the database's: every instance judges
 * quiet hours, retries and schedules by the one clock they share, however
 * far its own host's clock has drifted. It reads the host's clock and adds
 * the distance to the database's, measured at start and every minute (half
 * the round trip taken as the moment the database read its clock). Before
 * the first measurement, or when one fails, the last distance holds.
 */
export class DatabaseClock {
  #offsetMs = 0;
  #timer: NodeJS.Timeout | undefined;

  /** Now, by the database's clock. */
  readonly now = (): Date => new Date(Date.now() + this.#offsetMs);

  /** The last measured distance: the database's clock minus this host's, in ms. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Measures the distance once; `read` returns the database's now(). */
  async sync(read: () => Promise<Date>): Promise<number> {
    const before = Date.now();
    const databaseNow = await read();
    const after = Date.now();
    this.#offsetMs = Math.round(databaseNow.getTime() - (before + after) / 2);
    return this.#offsetMs;
  }

  /** Measures now and then every minute (failures keep the last distance and are reported to `onError`). */
  async follow(db: Knex, onError: (error: unknown) => void): Promise<void> {
    const read = async () => new Date((await db.raw('SELECT now() AS now')).rows[0].now);
    await this.sync(read).catch(onError);
    this.#timer = setInterval(() => void this.sync(read).catch(onError), RESYNC_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
