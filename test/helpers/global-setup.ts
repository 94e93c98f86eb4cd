import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createDatabase } from '../../core/db/database.ts';
import { runMigrations } from '../../core/db/migrate.ts';
import { coreMigrationsDir } from '../../core/paths.ts';
import { createTemplateDatabase, dropDatabase, dropLeftoverDatabases, postgresReachable, scratchParent, tmpRoot } from './databases.ts';

const DAY_MS = 24 * 3600 * 1000;

export default async function setup(): Promise<() => Promise<void>> {
  // A killed run cannot clean up after itself: stale scratch folders go. A run side by side in the same checkout keeps its own.
  mkdirSync(scratchParent(), { recursive: true });
  for (const name of readdirSync(scratchParent())) {
    const entry = path.join(scratchParent(), name);
    if (Date.now() - statSync(entry).mtimeMs > DAY_MS) rmSync(entry, { recursive: true, force: true });
  }
  // The test files' workers inherit this: they all put their scratch folders in this run's own (a fresh name, never another run's).
  process.env.NP_TEST_RUN = path.basename(mkdtempSync(path.join(scratchParent(), `run-${process.pid}-`)));
  const scratch = tmpRoot();
  let template: string | undefined;
  if (await postgresReachable()) {
    await dropLeftoverDatabases();
    // NP_TEST_TEMPLATE=0 migrates each database from scratch instead (to measure what the template saves).
    if (process.env.NP_TEST_TEMPLATE !== '0')
      template = await createTemplateDatabase(async (connectionString) => {
        const database = createDatabase({ connectionString });
        try {
          await runMigrations(database, [coreMigrationsDir]);
        } finally {
          await database.knex.destroy();
        }
      });
    // The workers inherit it too: each test file's PostgreSQL database is a copy of it.
    if (template) process.env.NP_TEST_TEMPLATE_DB = template;
  } else console.warn('PostgreSQL is not reachable: integration tests run on embedded PGlite only.');
  return async () => {
    rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
    if (template) await dropDatabase(template);
  };
}
