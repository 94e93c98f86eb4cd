import type { Knex } from 'knex';

/** PostgreSQL counts a statement's parameters in 16 bits: one statement binds at most this many. */
export const MAX_STATEMENT_PARAMETERS = 65_535;
/** What one of our statements binds at most: well under the limit, so a row with a few more columns never reaches it. */
const PARAMETERS_PER_STATEMENT = 30_000;

/** The rows cut into runs whose parameters (rows × columns) stay under PostgreSQL's limit. Pure. */
export function parameterChunks<T>(rows: readonly T[], parametersPerRow: number, maxParameters = PARAMETERS_PER_STATEMENT): T[][] {
  const size = Math.max(1, Math.floor(maxParameters / Math.max(1, parametersPerRow)));
  const chunks: T[][] = [];
  for (let start = 0; start < rows.length; start += size) chunks.push(rows.slice(start, start + size));
  return chunks;
}

/**
 * Inserts any number of rows, in as many statements as PostgreSQL's
 * parameter limit needs (one for a few hundred rows); with `returning`,
 * the returned rows in the order given. Use the caller's transaction when
 * the rows must go in together.
 */
export async function insertInChunks<R = unknown>(
  db: Knex | Knex.Transaction,
  table: string,
  rows: ReadonlyArray<Record<string, unknown>>,
  returning?: readonly string[],
): Promise<R[]> {
  if (rows.length === 0) return [];
  const columns = new Set(rows.flatMap((row) => Object.keys(row))).size;
  const returned: R[] = [];
  for (const chunk of parameterChunks(rows, columns)) {
    const query = db(table).insert(chunk);
    if (returning) returned.push(...((await query.returning([...returning])) as R[]));
    else await query;
  }
  return returned;
}
