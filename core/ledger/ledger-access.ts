import type { Knex } from 'knex';
import type { LedgerAccess } from '../plugin-api/core-ports.ts';
import { recordOutcomes, type RecordedOutcome } from './outcome.ts';
import { reopenQueued, settleQueued, type QueuedSettlement } from './queue.ts';

/** What the ledger settled for a target: each row's provider, outcome and its event's age at delivery (metrics). */
export type LedgerSettledObserver = (rows: readonly QueuedSettlement[]) => void;

/** Later outcomes the ledger recorded (metrics). */
export type LedgerOutcomeObserver = (rows: readonly RecordedOutcome[]) => void;

/**
 * The ledger as a target reaches it: a transactional target settles the
 * rows it took and reopens those an operator requeued in it; any target
 * records what its peer said later of a delivery.
 */
export function createLedgerAccess(db: Knex, onSettled?: LedgerSettledObserver, onOutcome?: LedgerOutcomeObserver): LedgerAccess {
  return {
    async settle(outcomes, trx) {
      const settled = await settleQueued(trx ?? db, outcomes, onSettled !== undefined);
      if (settled.length > 0) onSettled?.(settled);
    },
    reopen: (ledgerIds, trx) => reopenQueued(trx ?? db, ledgerIds),
    async reportOutcome(reports) {
      const recorded = await recordOutcomes(db, reports);
      if (recorded.length > 0) onOutcome?.(recorded);
      return recorded.length;
    },
  };
}
