/**
 * Matching: which of a feed's subscriptions an event reaches. Subscription
 * filters compiled once per stored text, the feed's subscriptions read in
 * pages (keyset, one lane's, or near the event's shape), and the reach of
 * events counted without claiming anything (a hold's question, the
 * console's preview).
 */
export {
  compileFilter,
  explainFilter,
  filterCriteria,
  FilterCache,
  wherePlacesOnly,
  type CompiledFilter,
  type FilterCriterion,
  type FilterMatchOf,
  type SubscriptionFilter,
} from './subscription-filter.ts';
export { subscriptionPage, systemSubscriptions, type PageScope, type SubscriptionRow } from './subscription-pages.ts';
export { activeSubscriptionCount, matchCounts, totalOf } from './match-counts.ts';
export { takesEvent } from './confirm-only.ts';
