import type { Knex } from 'knex';
import { escalate, lockDueConfirmations, type EscalationRow, type ReminderRow } from '../ledger/index.ts';
import type { SubscriberPreferences } from '../plugin-api/preferences.ts';
import type { WorkerDefinition } from '../plugin-api/worker-types.ts';
import { nextMove } from './escalation-policy.ts';
import { nextReminder } from './notice-policy.ts';

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
 * SKIP LOCKED: two instances never take the same one): a notice's sends
 * its next daily reminder while it has one (unique per confirmation and
 * reminder); then each sends its next escalation step (one pending ledger row, unique per confirmation and
 * step, so a step goes once however often this runs, across restarts and
 * instances) and is due again after the step after it's delay; one with
 * every step sent lands in the "Not confirmed" list. Answers the steps sent
 * and the confirmations listed.
 */
export async function escalateDue(deps: EscalationDependencies): Promise<{ steps: number; reminders: number; listed: number }> {
  const total = { steps: 0, reminders: 0, listed: 0 };
  for (;;) {
    const moved = await deps.db.transaction(async (trx) => {
      const now = deps.now();
      const due = await lockDueConfirmations(trx, now, PER_TRANSACTION);
      const steps: EscalationRow[] = [];
      const reminders: ReminderRow[] = [];
      const listed: number[] = [];
      const installed = deps.installed();
      for (const confirmation of due) {
        const escalation = (confirmation.preferences as SubscriberPreferences | null)?.escalation ?? [];
        // A notice first reminds the person on their own channel, every day until the time to confirm by.
        const reminder =
          confirmation.until && nextReminder(confirmation.createdAt, confirmation.until, confirmation.reminded, now, escalation, deps.listAfterMinutes);
        if (reminder) {
          reminders.push({ confirmation, reminder: reminder.number, nextAt: reminder.nextAt });
          continue;
        }
        let sent = confirmation.step;
        let move = nextMove(escalation, sent, now, deps.listAfterMinutes);
        // A step by a provider taken out since it was set is passed over, not waited on.
        while (move.kind === 'send' && !installed.has(move.step.provider)) move = nextMove(escalation, ++sent, now, deps.listAfterMinutes);
        if (move.kind === 'list') listed.push(confirmation.id);
        else steps.push({ confirmation, step: move.number, provider: move.step.provider, destination: move.step.destination, nextAt: move.nextAt });
      }
      await escalate(trx, steps, listed, reminders);
      const lanes = new Set([...steps.map((step) => step.provider), ...reminders.map((r) => r.confirmation.provider)]);
      if (lanes.size > 0) await deps.notifyLanes(trx, lanes);
      return { due: due.length, steps: steps.length, reminders: reminders.length, listed: listed.length };
    });
    total.steps += moved.steps;
    total.reminders += moved.reminders;
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
      if (moved.steps + moved.reminders + moved.listed > 0)
        log.info(moved, 'unconfirmed alerts: reminders or escalation steps sent, or listed as not confirmed');
    },
  };
}
