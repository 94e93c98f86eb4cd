import type { NotificationEvent } from '../plugin-api/feed-types.ts';
import type { SubscriberPreferences } from '../plugin-api/preferences.ts';

/**
 * Whether a subscriber whose filter matches an event takes it (pure): a
 * notice to confirm (an event with `confirmBy`) goes only to those who
 * confirm (`preferences.confirm`, set by an admin); every other event to all.
 */
export const takesEvent = (event: Pick<NotificationEvent, 'confirmBy'>, preferences: SubscriberPreferences | null | undefined): boolean =>
  event.confirmBy === undefined || preferences?.confirm === true;
