/**
 * Whether an error says the database could not be reached or used at all,
 * rather than that one statement failed: no pooled connection in time
 * (knex's KnexTimeoutError), a socket error (ECONNREFUSED, ECONNRESET,
 * ETIMEDOUT, EPIPE…), a connection the server or the network ended, or
 * PostgreSQL's SQLSTATE classes 08 (connection exception), 53
 * (insufficient resources: too many connections, disk full) and 57P
 * (the server shutting down). A constraint, a check or a trigger failing
 * is not: that is about what was written.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'KnexTimeoutError') return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return /^E[A-Z]+$/.test(code) || /^(08|53|57P)/.test(code);
  return /connection terminated|connection (is )?(closed|ended)|not queryable/i.test(error.message);
}
