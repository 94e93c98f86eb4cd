import { mkdirSync, rmSync } from 'node:fs';
import { dropLeftoverDatabases, postgresReachable, tmpRoot } from './databases.ts';

export default async function setup(): Promise<void> {
  rmSync(tmpRoot(), { recursive: true, force: true });
  mkdirSync(tmpRoot(), { recursive: true });
  if (await postgresReachable()) await dropLeftoverDatabases();
  else console.warn('PostgreSQL is not reachable: integration tests run on embedded PGlite only.');
}
