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
}

/** Events by type, for the log line and the counters: `{ NewOutage: 2, Restoration: 1 }`. */
export function countByType(events: ReadonlyArray<{ eventType: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { eventType } of events) counts[eventType] = (counts[eventType] ?? 0) + 1;
  return counts;
}

/** The error part of a failed poll's report. */
export function describePollError(error: unknown): { kind: string; message: string } {
  if (error instanceof Error) return { kind: error.name, message: error.message.slice(0, 500) };
  return { kind: 'Error', message: String(error).slice(0, 500) };
}
