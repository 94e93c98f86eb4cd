import type { Knex } from 'knex';
import { pino } from 'pino';
import { ToadScheduler } from 'toad-scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../core/db/database.ts';
import { runMigrations } from '../../core/db/migrate.ts';
import { coreMigrationsDir } from '../../core/paths.ts';
import { WorkerLeases } from '../../core/scheduler/worker-leases.ts';
import { WorkerScheduler } from '../../core/scheduler/worker-scheduler.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';

function captureLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

/** A promise the test settles itself: an iteration waits on it instead of on a timer. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('worker scheduler', () => {
  let database: ProvisionedDatabase;
  let knex: Knex;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    const db = createDatabase({ connectionString: database.connectionString, embeddedPath: database.env.Database__EmbeddedPath });
    await runMigrations(db, [coreMigrationsDir]);
    knex = db.knex;
  });
  afterAll(async () => {
    await knex?.destroy();
    await database?.drop();
  });

  it('logs a throwing iteration and runs the next tick', async () => {
    const { log, lines } = captureLogger();
    const scheduler = new WorkerScheduler(new ToadScheduler(), new WorkerLeases(knex, 'a'), log);
    let calls = 0;
    scheduler.register({
      name: 'flaky',
      intervalSeconds: 1,
      exclusive: false,
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error('feed exploded');
      },
    });
    // The second call is the next tick, a second (the interval) after the first.
    await expect.poll(() => calls, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await scheduler.stop();
    const failure = lines.find((line) => line.msg === 'worker iteration failed; the next tick runs as planned');
    expect(failure).toMatchObject({ worker: 'flaky', err: { message: 'feed exploded' } });
  });

  it('never overlaps an iteration of the same worker', async () => {
    const { log } = captureLogger();
    const scheduler = new WorkerScheduler(new ToadScheduler(), new WorkerLeases(knex, 'b'), log);
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const slow = gate();
    scheduler.register({
      name: 'slow',
      intervalSeconds: 1,
      exclusive: false,
      run: async () => {
        active += 1;
        runs += 1;
        maxActive = Math.max(maxActive, active);
        await slow.opened;
        active -= 1;
      },
    });
    // The first tick runs at once and waits; two more iterations are asked for while it does.
    await expect.poll(() => active, { timeout: 10_000 }).toBe(1);
    const asked = Promise.all([scheduler.runNow('slow'), scheduler.runNow('slow')]);
    slow.open();
    await asked;
    await scheduler.stop();
    expect(maxActive).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(3);
  });

  it('runs an exclusive worker once per period across two instances on one database', async () => {
    const { log } = captureLogger();
    const runsBy: string[] = [];
    const schedulers = ['one', 'two'].map((owner) => {
      const scheduler = new WorkerScheduler(new ToadScheduler(), new WorkerLeases(knex, owner), log);
      scheduler.register({ name: 'shared-monitor', intervalSeconds: 3600, run: async () => void runsBy.push(owner) });
      return scheduler;
    });
    // Each instance's first tick runs at once: one of them takes the lease and runs.
    await expect.poll(() => runsBy.length, { timeout: 10_000 }).toBe(1);
    await Promise.all(schedulers.map((scheduler) => scheduler.runNow('shared-monitor')));
    await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
    expect(runsBy).toHaveLength(1);
    const lease = await knex('worker_leases').where({ name: 'shared-monitor' }).first();
    expect(lease.lease_owner).toBeNull();
    // The next run is due in 90 % of the period, on the database's clock (the one the leases are judged by).
    expect(
      (await knex.raw("SELECT next_run_at > now() + interval '3000 seconds' AS later FROM worker_leases WHERE name = 'shared-monitor'")).rows[0].later,
    ).toBe(true);
  });

  it('lets another instance take over a lease its dead owner never released', async () => {
    await knex('worker_leases').insert({
      name: 'orphan',
      next_run_at: knex.raw("now() - interval '1 minute'"),
      lease_owner: 'dead',
      lease_until: knex.raw("now() - interval '1 second'"),
    });
    expect(await new WorkerLeases(knex, 'alive').tryAcquire('orphan', 60)).toBe(true);
    expect(await new WorkerLeases(knex, 'other').tryAcquire('orphan', 60)).toBe(false);
  });

  it('stop() waits for a running iteration and aborts its signal', async () => {
    const { log } = captureLogger();
    const scheduler = new WorkerScheduler(new ToadScheduler(), new WorkerLeases(knex, 'c'), log);
    let finished = false;
    let sawAbort = false;
    const started = gate();
    scheduler.register({
      name: 'long',
      intervalSeconds: 3600,
      exclusive: false,
      run: async ({ signal }) => {
        started.open();
        // Runs until it is told to stop.
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        sawAbort = signal.aborted;
        finished = true;
      },
    });
    await started.opened;
    await scheduler.stop();
    expect(finished).toBe(true);
    expect(sawAbort).toBe(true);
  });
});
