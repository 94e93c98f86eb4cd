import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { dropLeftoverDatabases, postgresReachable, scratchParent, tmpRoot } from './databases.ts';

const DAY_MS = 24 * 3600 * 1000;

export default async function setup(): Promise<() => void> {
  // A killed run cannot clean up after itself: stale scratch folders go. A run side by side in the same checkout keeps its own.
  mkdirSync(scratchParent(), { recursive: true });
  for (const name of readdirSync(scratchParent())) {
    const entry = path.join(scratchParent(), name);
    if (Date.now() - statSync(entry).mtimeMs > DAY_MS) rmSync(entry, { recursive: true, force: true });
  }
  // The test files' workers inherit this: they all put their scratch folders in this run's own (a fresh name, never another run's).
  process.env.NP_TEST_RUN = path.basename(mkdtempSync(path.join(scratchParent(), `run-${process.pid}-`)));
  const scratch = tmpRoot();
  if (await postgresReachable()) await dropLeftoverDatabases();
  else console.warn('PostgreSQL is not reachable: integration tests run on embedded PGlite only.');
  return () => rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
}
