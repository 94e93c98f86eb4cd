import type { Knex } from 'knex';
import type { StillOutPort } from '../plugin-api/core-ports.ts';
import { latestEndDeliveries, reportByDelivery, type StillOutTypes } from './still-out-store.ts';

/** The port a target that takes replies reports through (an SMS OUT): each subscription's latest message that ended an item. */
export function createStillOutPort(db: Knex, types: StillOutTypes): StillOutPort {
  return {
    async reportByReply(subscriptionIds) {
      let recorded = 0;
      let already = 0;
      for (const ledgerId of await latestEndDeliveries(db, subscriptionIds, types)) {
        const verdict = await reportByDelivery(db, ledgerId, 'reply', types);
        if (verdict.kind === 'recorded') recorded += 1;
        else if (verdict.kind === 'already') already += 1;
      }
      return { recorded, already };
    },
  };
}
