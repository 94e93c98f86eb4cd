import type { Knex } from 'knex';

/** The base tables of the service's schema (core's and every plugin's). */
export async function tableNames(knex: Knex): Promise<string[]> {
  const { rows } = await knex.raw<{ rows: Array<{ table_name: string }> }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Row count of every table, in one round trip. */
export async function rowCounts(knex: Knex, tables?: readonly string[]): Promise<Record<string, number>> {
  const names = tables ?? (await tableNames(knex));
  const sql = names.map((name) => `SELECT '${name.replace(/'/g, "''")}' AS t, count(*)::int AS n FROM ${quoted(name)}`).join(' UNION ALL ');
  const { rows } = await knex.raw<{ rows: Array<{ t: string; n: number }> }>(sql);
  return Object.fromEntries(rows.map((row) => [row.t, Number(row.n)]));
}

/** A digest of every row of every table: any insert, update or delete changes it. */
export async function contentDigests(knex: Knex, tables?: readonly string[]): Promise<Record<string, string>> {
  const names = tables ?? (await tableNames(knex));
  const sql = names
    .map((name) => `SELECT '${name.replace(/'/g, "''")}' AS t, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS d FROM ${quoted(name)} x`)
    .join(' UNION ALL ');
  const { rows } = await knex.raw<{ rows: Array<{ t: string; d: string }> }>(sql);
  return Object.fromEntries(rows.map((row) => [row.t, row.d]));
}
