/**
 * The delivery ledger: one row per (subscription, source key, event type),
 * the record that each event reaches each subscription at most once, and
 * the work queue of the delivery lanes. This module is its one owner:
 * every change of a row's state is one of the transitions below, one file
 * each, and every reader takes the state names from here.
 *
 * The three ways into delivery:
 * - the lease loop (`leaseDue`): a lane's due rows, urgent first;
 * - the take-over (`claimRows` with a lease): rows claimed already leased
 *   to a lane that has room, with no second write;
 * - deliver now (`leaseByIds`): exactly the rows a waiting caller claimed.
 */
export { LEDGER_STATES, REACHED_STATES, SETTLED_STATES, TOLD_STATES, UNSETTLED_STATES, WAITING_STATES, sqlList, type LedgerState } from './ledger-states.ts';
export {
  CLAIM_ROWS_PER_STATEMENT,
  claimRows,
  systemDeliveryExists,
  type ClaimTarget,
  type ClaimedEvent,
  type ClaimedRow,
  type TakeOverLease,
} from './claim.ts';
export { followsEarlierEvent, supersedeWaiting, waitOutCooldown } from './supersede.ts';
export { skipClaimed, toldBefore, type SkipCriterion, type ToldBefore } from './skip.ts';
export { leaseByIds, leaseDue, nextDueInMs, renewLease, type LeasedRow, type LeasedSubscription } from './lease.ts';
export { lapseEarlierRuns } from './lapse.ts';
export { settleLeased, type SettledDelivery } from './settle.ts';
export { markQueued, reopenQueued, settleQueued, type QueuedSettlement } from './queue.ts';
export { createLedgerAccess, type LedgerOutcomeObserver, type LedgerSettledObserver } from './ledger-access.ts';
export { recordOutcomes, type RecordedOutcome } from './outcome.ts';
export { requeueFailed, type RequeueRequest } from './requeue.ts';
export { holdForQuietHours, unreleasedHolds } from './hold.ts';
export { lockEndedHolds, mergeIntoCatchUps, type CatchUpClaim, type HeldRow, type ReleasedSubscription } from './merge.ts';
export { purgeLaneMinutes, purgeSettled } from './purge.ts';
export { BACKLOG_COUNT_CAP, laneBacklogs, type LaneBacklog } from './reads.ts';
export { listDeliveries, type DeliveryListItem, type DeliveryListQuery } from './delivery-list.ts';
export {
  askConfirmations,
  CONFIRMATION_STATES,
  confirmationOfDelivery,
  escalate,
  escalationKey,
  lockDueConfirmations,
  notConfirmed,
  OPEN_CONFIRMATION_STATES,
  openConfirmationsTo,
  reminderKey,
  settleConfirmations,
  withdrawConfirmationsOf,
  withdrawNotices,
  type ConfirmationState,
  type ConfirmedVia,
  type DueConfirmation,
  type EscalationRow,
  type NotConfirmed,
  type ReminderRow,
} from './confirmations.ts';
