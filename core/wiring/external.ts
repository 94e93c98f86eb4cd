import fastifySchedule from '@fastify/schedule';
import type { FastifyInstance } from 'fastify';
import { runMigrations } from '../db/migrate.ts';
import { Errors } from '../errors.ts';
import { createWakeups } from '../queue/wakeups.ts';
import { WorkerLeases } from '../scheduler/worker-leases.ts';
import { WorkerScheduler } from '../scheduler/worker-scheduler.ts';
import type { Database } from '../db/database.ts';
import type { Shutdown } from './shutdown.ts';
import type { External, Platform } from './services.ts';

/**
 * Third-party wiring, first: the database with every migration applied
 * (a failed migration stops the start), the scheduler of the workers, and
 * the wake-up channel, each added to buildApp's shutdown (which already
 * closes the database, last).
 */
export async function wireExternal(
  app: FastifyInstance,
  inputs: { readonly platform: Platform; readonly database: Database; readonly shutdown: Shutdown },
): Promise<External> {
  const { platform, database, shutdown } = inputs;
  const readiness = { migrated: false, pluginsLoaded: false };
  try {
    const report = await runMigrations(database, platform.registry.migrationDirs);
    if (report.applied.length > 0) app.log.info({ applied: report.applied }, 'migrations applied');
    readiness.migrated = true;
  } catch (cause) {
    throw new Errors.MigrationFailed((cause as Error).message, { cause });
  }
  const wakeups = createWakeups(database.knex, database.kind, app.log.child({ component: 'wakeups' }));
  shutdown.add('wake-ups', () => wakeups.close());
  // In a scope of its own: its `scheduler` decoration stays out of the plugins' reach, and it still stops when the app closes.
  let scheduler: FastifyInstance['scheduler'] | undefined;
  await app.register(async (scope) => {
    await scope.register(fastifySchedule);
    scheduler = scope.scheduler;
  });
  const workers = new WorkerScheduler(scheduler!, new WorkerLeases(database.knex, platform.instanceId), app.log);
  shutdown.add('workers', () => workers.stop());
  return { database, db: database.knex, workers, wakeups, shutdown, readiness };
}
