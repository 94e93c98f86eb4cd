import type { Knex } from 'knex';
import type { LedgerAccess } from '../plugin-api/core-ports.ts';
import { reopenQueued, settleQueued, type QueuedSettlement } from './queue.ts';

/** What the ledger settled for a target: each row's provider, outcome and its event's age at delivery (metrics). */
export type LedgerSettledObserver = (rows: readonly QueuedSettlement[]) => void;

/** The ledger as a transactional target reaches it: it settles the rows it took, and reopens those an operator requeued in it. */
export function createLedgerAccess(db: Knex, onSettled?: LedgerSettledObserver): LedgerAccess {
  return {
    async settle(outcomes, trx) {
      const settled = await settleQueued(trx ?? db, outcomes, onSettled !== undefined);
      if (settled.length > 0) onSettled?.(settled);
    },
    reopen: (ledgerIds, trx) => reopenQueued(trx ?? db, ledgerIds),
  };
}
