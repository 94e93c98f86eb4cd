import type { Knex } from 'knex';
import type { Database } from './database.ts';

// Arbitrary constant: the advisory lock that serialises migrations of every instance.
const MIGRATION_LOCK_KEY = 734_201_118;

export interface MigrationReport {
  applied: string[];
}

function migratorConfig(dirs: readonly string[]): Knex.MigratorConfig {
  return {
    directory: [...dirs],
    loadExtensions: ['.ts', '.js'],
    sortDirsSeparately: true,
    tableName: 'knex_migrations',
  };
}

/**
 * Applies every pending migration of core and the plugins. On PostgreSQL
 * the run holds a session advisory lock on a dedicated connection, so two
 * instances starting together on an empty database run them once, one
 * after the other (knex's own lock table would make the second one fail).
 * PGlite has one connection and one process: no lock is needed.
 */
export async function runMigrations(db: Database, dirs: readonly string[]): Promise<MigrationReport> {
  const config = migratorConfig(dirs);
  if (db.kind === 'pglite') {
    const [, applied] = await db.knex.migrate.latest(config);
    return { applied };
  }
  const client = db.knex.client as Knex.Client & {
    acquireConnection(): Promise<{ query(sql: string, values?: unknown[]): Promise<unknown> }>;
    releaseConnection(connection: unknown): Promise<void>;
  };
  const connection = await client.acquireConnection();
  try {
    await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const [, applied] = await db.knex.migrate.latest(config);
      return { applied };
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.releaseConnection(connection);
  }
}

/** Names of migrations that exist in the folders but are not applied yet. */
export async function pendingMigrations(db: Database, dirs: readonly string[]): Promise<string[]> {
  const [, pending] = (await db.knex.migrate.list(migratorConfig(dirs))) as [unknown, Array<{ file: string } | string>];
  return pending.map((entry) => (typeof entry === 'string' ? entry : entry.file));
}
