import type { RejectedItem } from '../plugin-api/feed-answer.ts';

/**
 * What one poll of a feed came to: a fact the monitor runner returns and
 * hands to whoever records it (the log, feed health, metrics). No I/O here.
 */
export type PollOutcome = 'changed' | 'unchanged' | 'failed';

export interface PollReport {
  readonly pluginId: string;
  readonly feedId: string;
  readonly outcome: PollOutcome;
  readonly startedAt: Date;
  readonly durationMs: number;
  /** Failed polls: the error's class and message (they name the endpoint and rule, never the key or body). */
  readonly error?: { readonly kind: string; readonly message: string };
  /** Polls that ran DETECT: how many items it saw (a changed answer's, or the stored ones still waiting on the clock). */
  readonly items?: number;
  readonly eventsByType?: Readonly<Record<string, number>>;
  readonly matchedSubscriptionCount?: number;
  /** Deliveries claimed at hand-over: they go out after the poll, through the dispatcher (whose batch lines count them). */
  readonly claimedCount?: number;
  /** Items of the answer left out, alone, with why (the others went on). */
  readonly rejected?: readonly RejectedItem[];
}

/** Events by type, for the log line and the counters: `{ NewOutage: 2, Restoration: 1 }`. */
export function countByType(events: ReadonlyArray<{ eventType: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { eventType } of events) counts[eventType] = (counts[eventType] ?? 0) + 1;
  return counts;
}

/** A database error (it carries a SQLSTATE): its words, never the statement (knex puts the SQL first, then " - " and the server's message). */
function databaseWords(error: Error & { code?: unknown }): string | null {
  if (typeof error.code !== 'string' || !/^[0-9A-Z]{5}$/.test(error.code)) return null;
  const words = error.message.split(' - ').at(-1)!.trim();
  return `the database refused what the poll would store: ${words} (SQLSTATE ${error.code})`;
}

/** The error part of a failed poll's report: what went wrong in words, never an SQL statement. */
export function describePollError(error: unknown): { kind: string; message: string } {
  if (error instanceof Error) return { kind: error.name, message: (databaseWords(error) ?? error.message).slice(0, 500) };
  return { kind: 'Error', message: String(error).slice(0, 500) };
}

/** Rejected items named in words (a health record's lastError, a log line): the first few, then how many more. */
export function describeRejected(rejected: readonly RejectedItem[], shown = 5): string {
  const named = rejected.slice(0, shown).map((item) => `${item.id ?? `item ${item.index}`}: ${item.detail}`);
  const more = rejected.length > shown ? `; and ${rejected.length - shown} more` : '';
  const shapes = rejected.filter((item) => item.reason === 'geometry').length;
  const left = rejected.length - shapes;
  const parts = [
    ...(left > 0 ? [`${left} ${left === 1 ? 'item' : 'items'} of the answer left out (the others were processed)`] : []),
    ...(shapes > 0 ? [`${shapes} ${shapes === 1 ? 'shape' : 'shapes'} dropped (${shapes === 1 ? 'its item' : 'their items'} kept)`] : []),
  ];
  return `${parts.join(', ')}: ${named.join('; ')}${more}`;
}
