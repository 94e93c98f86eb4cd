import type { FastifyBaseLogger } from 'fastify';

export interface WorkerRunContext {
  /** Aborted at shutdown: a long iteration should stop at the next safe point. */
  readonly signal: AbortSignal;
  readonly log: FastifyBaseLogger;
}

export interface WorkerDefinition {
  /** Unique across the service, for example `utility-power-outages.monitor`. */
  readonly name: string;
  readonly intervalSeconds: number;
  /**
   * true (the default): one run per period across every instance on the
   * database (a lease row decides who). false: every instance runs it, for
   * work that is claimed row by row (FOR UPDATE SKIP LOCKED).
   */
  readonly exclusive?: boolean;
  run(context: WorkerRunContext): Promise<void>;
}
