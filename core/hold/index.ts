/**
 * Hold: an event that would reach more subscriptions than
 * NotificationPipeline__HoldAboveSubscriptions waits, `held`, for an
 * operator to release (it is then delivered as a hand-over would) or to
 * discard (never delivered). Held events outlive retention until decided.
 */
export { holdAboveThreshold, type HoldRules } from './hold-above.ts';
export { discardHeldEvent, markHeld, releaseHeldEvent } from './hold-store.ts';
