/**
 * "Still out?": a message that ends an item (a restoration) asks its
 * subscriber to say if it has not ended for them, by a link or a reply;
 * one report per subscription and item is recorded for the console, and
 * the feed's state is never changed.
 */
export { createStillOutInvite, type StillOutInvite } from './still-out-invite.ts';
export { createStillOutPort } from './still-out-port.ts';
export { stillOutRoutes } from './still-out-routes.ts';
export { readStillOutToken, stillOutLink, stillOutToken } from './still-out-token.ts';
export {
  latestEndDeliveries,
  purgeStillOutReports,
  reportByDelivery,
  stillOutItems,
  stillOutKey,
  type ReportVerdict,
  type ReportVia,
  type StillOutItem,
  type StillOutTypes,
} from './still-out-store.ts';
