import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knexModule, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';
import { projectRoot } from '../paths.ts';
import { describeConnection, parseConnectionString } from './connection-string.ts';
import { openEmbeddedDatabase } from './embedded-database.ts';

const knex = knexModule.knex ?? knexModule;

export interface DatabaseSettings {
  connectionString?: string;
  embeddedPath?: string;
  poolMax?: number;
}

export interface Database {
  knex: Knex;
  kind: 'postgres' | 'pglite';
  /** Safe to log: no password. */
  description: string;
  /** Values to redact from logs (the password). */
  secrets: string[];
}

// bigint (int8) as a JavaScript number, as PGlite answers: ids stay far below 2^53.
const INT8_OID = 20;
const pgTypes = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * PostgreSQL through pg when a connection string is set; otherwise the
 * embedded PGlite under data/ (one connection: every query inside a
 * transaction must use that transaction; one process per folder: throws
 * EmbeddedDatabaseInUse while another holds it).
 */
export function createDatabase(settings: DatabaseSettings): Database {
  if (settings.connectionString) {
    const parsed = parseConnectionString(settings.connectionString);
    return {
      kind: 'postgres',
      description: describeConnection(parsed),
      secrets: parsed.password ? [parsed.password, settings.connectionString] : [settings.connectionString],
      knex: knex({
        client: 'pg',
        connection: { ...parsed, types: pgTypes, application_name: 'notification-pipeline', connectionTimeoutMillis: 5000 },
        pool: { min: 0, max: settings.poolMax ?? 10 },
        acquireConnectionTimeout: 10_000,
      }),
    };
  }
  const dir = path.resolve(projectRoot, settings.embeddedPath ?? 'data');
  mkdirSync(dir, { recursive: true });
  return {
    kind: 'pglite',
    description: `embedded PGlite at ${dir}`,
    secrets: [],
    knex: knex({ client: ClientPgLite as unknown as typeof Knex.Client, dialect: 'postgres', connection: { pglite: openEmbeddedDatabase(dir) } as never }),
  };
}

/** An in-memory PGlite, for tests. */
export function createMemoryDatabase(): Database {
  return {
    kind: 'pglite',
    description: 'in-memory PGlite',
    secrets: [],
    knex: knex({ client: ClientPgLite as unknown as typeof Knex.Client, dialect: 'postgres', connection: {} }),
  };
}
