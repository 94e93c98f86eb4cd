/**
 * Delivery: each provider's lane (its share of the ledger, its batches and
 * requests in flight, its rate and pause), the outcome judge and the retry
 * policy. The pipeline hands claims to the lanes; nothing here matches or
 * renders.
 */
export {
  DeliveryLane,
  DEFAULT_CONCURRENCY,
  laneQueueName,
  type LaneDependencies,
  type LaneSettings,
  type LaneSlot,
  type LeasedClaim,
} from './delivery-lane.ts';
export { DeliveryLanes, type ClaimLease, type TakeOver } from './delivery-lanes.ts';
export { LaneControl, laneChannel } from './lane-control.ts';
export { createLanePort } from './lane-port.ts';
export { ensureLanes, lanePauses } from './lane-store.ts';
export { EventCache } from './event-cache.ts';
export { judgeDelivery, deferred, type SettledDelivery } from './delivery-outcome.ts';
export { DEFAULT_RETRY, backoffSeconds, nextAttemptAt, type RetrySettings } from '../plugin-api/retry-policy.ts';
export { toRecipient, type RecipientColumns } from './recipient.ts';
export type { LeasedDelivery } from './lane-queue-store.ts';
export type { SubscriberRendering } from './subscriber-rendering.ts';
export { estimatedSeconds, recentPerSecond, type LaneState } from './lane-estimates.ts';
export { estimatesFor, laneMinutes, readLanes, type LaneReport } from './lanes-view.ts';
export { EVENT_COLUMNS, eventOfRow, type EventColumns } from './event-row.ts';
export { activeAmong } from './active-subscriptions.ts';
