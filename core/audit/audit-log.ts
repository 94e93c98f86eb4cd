import type { Knex } from 'knex';

/**
 * The audit log: who did what, when. Operators' console actions, and what
 * people report through the service ("still out"), in one table the console
 * shows.
 */
export interface AuditEntry {
  readonly id: number;
  readonly at: string;
  readonly actor: string;
  readonly action: string;
  readonly detail: Record<string, unknown>;
}

/** Writes one console action to the audit log. */
export async function audit(db: Knex | Knex.Transaction, actor: string, action: string, detail: Record<string, unknown> = {}): Promise<void> {
  await db('console_audit_log').insert({ actor, action, detail: JSON.stringify(detail) });
}

/** The latest console actions, newest first. */
export async function auditLog(db: Knex, limit: number): Promise<AuditEntry[]> {
  const rows = await db('console_audit_log').orderBy('id', 'desc').limit(limit);
  return rows.map((row: Record<string, unknown>) => ({
    id: Number(row.id),
    at: new Date(row.at as string).toISOString(),
    actor: String(row.actor),
    action: String(row.action),
    detail: (row.detail ?? {}) as Record<string, unknown>,
  }));
}
