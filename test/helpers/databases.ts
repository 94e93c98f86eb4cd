import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { isProcessAlive } from '../../core/db/data-folder-lock.ts';
import { projectRoot } from '../../core/paths.ts';

/** Admin connection of the test PostgreSQL server; each test file gets a fresh database on it. */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_DB_PREFIX = 'np_test_';
export type DatabaseKind = 'postgres' | 'pglite';

export interface ProvisionedDatabase {
  kind: DatabaseKind;
  /** Env entries that point the service at this database. */
  env: Record<string, string>;
  connectionString?: string;
  drop(): Promise<void>;
}

let reachable: Promise<boolean> | undefined;

/** Whether the test PostgreSQL server answers. With REQUIRE_POSTGRES=1 (CI) its absence is an error. */
export function postgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch (error) {
      if (process.env.REQUIRE_POSTGRES === '1')
        throw new Error(`REQUIRE_POSTGRES=1 but ${ADMIN_URL.replace(/:[^:@/]*@/, ':***@')} does not answer`, { cause: error });
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return reachable;
}

/** The kinds integration tests run on: PostgreSQL when reachable, and always PGlite. */
export async function databaseKinds(): Promise<DatabaseKind[]> {
  return (await postgresReachable()) ? ['postgres', 'pglite'] : ['pglite'];
}

/** PostgreSQL when reachable, else PGlite: for tests that need one database of either kind. */
export async function preferredKind(): Promise<DatabaseKind> {
  return (await postgresReachable()) ? 'postgres' : 'pglite';
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh database of the kind. On PostgreSQL it is a copy of this run's
 * template, core's migrations applied (made once by the global setup, as
 * graphile-worker's tests do), unless `empty` asks for one with nothing
 * applied (a test of the migrations themselves).
 */
export async function provisionDatabase(kind: DatabaseKind, options: { readonly empty?: boolean } = {}): Promise<ProvisionedDatabase> {
  if (kind === 'postgres') {
    const name = `${TEST_DB_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
    const template = options.empty ? undefined : process.env.NP_TEST_TEMPLATE_DB;
    await admin((client) => client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
    const connectionString = databaseUrl(name);
    return {
      kind,
      connectionString,
      env: { ConnectionStrings__DefaultConnection: connectionString },
      drop: async () => {
        if (process.env.KEEP_TEST_DB === '1') return;
        await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpRoot(), 'pglite-'));
  return {
    kind,
    env: { Database__EmbeddedPath: dir },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Where every test run keeps its scratch folder (test/.tmp: ignored by git and by vitest). */
export function scratchParent(): string {
  return path.join(projectRoot, 'test', '.tmp');
}

/**
 * This run's scratch space inside the project (plugin folders copied there
 * still resolve #plugin-api): one folder per run, made by the global setup
 * and removed by its teardown, so a run leaves nothing behind.
 */
export function tmpRoot(): string {
  return path.join(scratchParent(), process.env.NP_TEST_RUN ?? `run-${process.pid}`);
}

/**
 * Drops databases left by earlier runs (a killed run cannot clean up after
 * itself): only those whose creating process is gone, so runs side by side
 * on one server leave each other alone.
 */
export async function dropLeftoverDatabases(): Promise<void> {
  if (!(await postgresReachable())) return;
  await admin(async (client) => {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${TEST_DB_PREFIX}%`]);
    for (const { datname } of rows) {
      const pid = Number(datname.slice(TEST_DB_PREFIX.length).split('_')[0]);
      if (Number.isInteger(pid) && isProcessAlive(pid)) continue;
      await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  });
}

/**
 * This run's template on PostgreSQL: a database with core's migrations
 * applied, which provisionDatabase copies (CREATE DATABASE … TEMPLATE) for
 * each test file instead of migrating core from scratch in each. Named
 * after the run's process, so dropLeftoverDatabases drops it once that is
 * gone; nothing stays connected to it (a copy needs that).
 */
export async function createTemplateDatabase(migrate: (connectionString: string) => Promise<void>): Promise<string> {
  const name = `${TEST_DB_PREFIX}${process.pid}_template`;
  await admin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
  await migrate(databaseUrl(name));
  return name;
}

export async function dropDatabase(name: string): Promise<void> {
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}
