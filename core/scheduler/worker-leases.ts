import type { Knex } from 'knex';

/** How long a run holds its lease without a heartbeat: another instance takes over after it. */
export const LEASE_SECONDS = 30;
export const HEARTBEAT_MS = 10_000;

/**
 * Cluster-wide run slots of exclusive workers (table worker_leases): one run
 * per period across every instance on the database. A dead instance's lease
 * lapses after LEASE_SECONDS.
 */
export class WorkerLeases {
  readonly #db: Knex;
  readonly #owner: string;

  constructor(db: Knex, owner: string) {
    this.#db = db;
    this.#owner = owner;
  }

  /**
   * Takes the slot when the period is due (or `force`: an operator or test
   * asks for a run now) and nobody holds it. The next run becomes due after
   * 90 % of the period, so timer jitter never skips one.
   */
  async tryAcquire(name: string, intervalSeconds: number, force = false): Promise<boolean> {
    await this.#db.raw('INSERT INTO worker_leases (name) VALUES (?) ON CONFLICT (name) DO NOTHING', [name]);
    const dueIn = Math.max(1, intervalSeconds * 0.9);
    const result = await this.#db.raw(
      `UPDATE worker_leases
          SET lease_owner = ?, lease_until = now() + make_interval(secs => ?), last_started_at = now(),
              next_run_at = now() + make_interval(secs => ?)
        WHERE name = ? AND (? OR next_run_at <= now()) AND (lease_until IS NULL OR lease_until < now())
        RETURNING name`,
      [this.#owner, LEASE_SECONDS, dueIn, name, force],
    );
    return result.rows.length === 1;
  }

  async heartbeat(name: string): Promise<void> {
    await this.#db.raw('UPDATE worker_leases SET lease_until = now() + make_interval(secs => ?) WHERE name = ? AND lease_owner = ?', [
      LEASE_SECONDS,
      name,
      this.#owner,
    ]);
  }

  async release(name: string, error: string | null): Promise<void> {
    await this.#db.raw(
      `UPDATE worker_leases SET lease_owner = NULL, lease_until = NULL, last_finished_at = now(), last_error = ?
        WHERE name = ? AND lease_owner = ?`,
      [error, name, this.#owner],
    );
  }
}
