import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../core/app.ts';

export { servicesOf } from '../../core/app.ts';
import type { ProvisionedDatabase } from './databases.ts';

export interface TestApp {
  app: FastifyInstance;
  /** Every log line written so far, as written (after redaction). */
  logs: string[];
  close(): Promise<void>;
}

/**
 * The plugins a test app loads: a folder of its own choosing, or
 * `EVERY_INSTALLED_PLUGIN` (plugins/ as the service finds it, with whatever
 * was dropped in). Required, so each test says which: the drop-in pass of
 * npm test runs again the tests that see every installed plugin.
 */
export const EVERY_INSTALLED_PLUGIN = 'every installed plugin';

export interface TestAppOptions {
  database: ProvisionedDatabase;
  env?: Record<string, string>;
  pluginsDir: string;
  workers?: boolean;
  now?: () => Date;
}

/** Builds the real app on a provisioned database with captured logs. */
export async function startTestApp(options: TestAppOptions): Promise<TestApp> {
  const logs: string[] = [];
  const app = await buildApp({
    // The test's clock (the host's, faked or not, or the one it injects), not the database's: a test sets its own time.
    env: { Logging__Level: 'info', Server__ClockFollowsDatabase: 'false', ...options.database.env, ...options.env },
    pluginsDir: options.pluginsDir === EVERY_INSTALLED_PLUGIN ? undefined : options.pluginsDir,
    workers: options.workers,
    now: options.now,
    logStream: { write: (line: string) => void logs.push(line) },
  });
  await app.ready();
  return { app, logs, close: () => app.close() };
}
