import type { Knex } from 'knex';
import { escalate, lockDueConfirmations, type EscalationRow } from '../ledger/index.ts';
import type { SubscriberPreferences } from '../plugin-api/preferences.ts';
import type { WorkerDefinition } from '../plugin-api/worker-types.ts';
import { nextMove } from './escalation-policy.ts';

export const ESCALATION_WORKER = 'core.confirmation-escalation';
/** Confirmations moved on in one transaction. */
const PER_TRANSACTION = 200;

export interface EscalationDependencies {
  readonly db: Knex;
  /** The service clock: a step is due once its time has come by it. */
  now(): Date;
  /** Confirmation__ListAfterMinutes. */
  readonly listAfterMinutes: number;
  /** The providers installed now: a step by one that is not is skipped over (the next step, or the list, comes instead). */
  installed(): ReadonlySet<string>;
  /** Inside the transaction: wakes these lanes once the steps commit. */
  notifyLanes(trx: Knex.Transaction, providers: Iterable<string>): Promise<void>;
}

/**
 * Moves due confirmations on, one transaction per bounded set (locked,
 * SKIP LOCKED: two instances never take the same one): each sends its next
 * escalation step (one pending ledger row, unique per confirmation and
 * step, so a step goes once however often this runs, across restarts and
 * instances) and is due again after the step after it's delay; one with
 * every step sent lands in the "Not confirmed" list. Answers the steps sent
 * and the confirmations listed.
 */
export async function escalateDue(deps: EscalationDependencies): Promise<{ steps: number; listed: number }> {
  const total = { steps: 0, listed: 0 };
  for (;;) {
    const moved = await deps.db.transaction(async (trx) => {
      const now = deps.now();
      const due = await lockDueConfirmations(trx, now, PER_TRANSACTION);
      const steps: EscalationRow[] = [];
      const listed: number[] = [];
      const installed = deps.installed();
      for (const confirmation of due) {
        const escalation = (confirmation.preferences as SubscriberPreferences | null)?.escalation ?? [];
        let sent = confirmation.step;
        let move = nextMove(escalation, sent, now, deps.listAfterMinutes);
        // A step by a provider taken out since it was set is passed over, not waited on.
        while (move.kind === 'send' && !installed.has(move.step.provider)) move = nextMove(escalation, ++sent, now, deps.listAfterMinutes);
        if (move.kind === 'list') listed.push(confirmation.id);
        else steps.push({ confirmation, step: move.number, provider: move.step.provider, destination: move.step.destination, nextAt: move.nextAt });
      }
      await escalate(trx, steps, listed);
      if (steps.length > 0) await deps.notifyLanes(trx, new Set(steps.map((step) => step.provider)));
      return { due: due.length, steps: steps.length, listed: listed.length };
    });
    total.steps += moved.steps;
    total.listed += moved.listed;
    if (moved.due < PER_TRANSACTION) return total;
  }
}

/** The escalation as a worker every instance runs (the locks keep them apart). */
export function escalationWorker(deps: EscalationDependencies, intervalSeconds: number): WorkerDefinition {
  return {
    name: ESCALATION_WORKER,
    intervalSeconds,
    exclusive: false,
    run: async ({ log }) => {
      const moved = await escalateDue(deps);
      if (moved.steps + moved.listed > 0) log.info(moved, 'unconfirmed alerts: escalation steps sent, or listed as not confirmed');
    },
  };
}
