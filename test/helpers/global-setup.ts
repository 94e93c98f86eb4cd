import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { dropLeftoverDatabases, postgresReachable, tmpRoot } from './databases.ts';

const DAY_MS = 24 * 3600 * 1000;

export default async function setup(): Promise<void> {
  // Only stale scratch folders go: a run side by side in the same checkout keeps its own.
  mkdirSync(tmpRoot(), { recursive: true });
  for (const name of readdirSync(tmpRoot())) {
    const entry = path.join(tmpRoot(), name);
    if (Date.now() - statSync(entry).mtimeMs > DAY_MS) rmSync(entry, { recursive: true, force: true });
  }
  if (await postgresReachable()) await dropLeftoverDatabases();
  else console.warn('PostgreSQL is not reachable: integration tests run on embedded PGlite only.');
}
