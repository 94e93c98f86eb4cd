import { readdirSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { coreMigrationsDir } from '../../core/paths.ts';
import { provisionDatabase, postgresReachable } from '../helpers/databases.ts';

async function appliedMigrations(connectionString: string): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client
      .query<{ name: string }>("SELECT name FROM knex_migrations WHERE to_regclass('knex_migrations') IS NOT NULL ORDER BY name")
      .catch(() => ({ rows: [] as Array<{ name: string }> }));
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

describe.runIf((await postgresReachable()) && process.env.NP_TEST_TEMPLATE !== '0')("the test run's template database", () => {
  it("gives each test file a copy with core's migrations applied, and an empty database on request", async () => {
    const core = readdirSync(coreMigrationsDir)
      .filter((name) => name.endsWith('.ts'))
      .sort();
    const copy = await provisionDatabase('postgres');
    const empty = await provisionDatabase('postgres', { empty: true });
    try {
      expect(await appliedMigrations(copy.connectionString!)).toEqual(core);
      expect(await appliedMigrations(empty.connectionString!)).toEqual([]);
    } finally {
      await copy.drop();
      await empty.drop();
    }
  });
});
