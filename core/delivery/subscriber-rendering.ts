import type { NotificationEvent, RenderedNotification } from '../plugin-api/feed-types.ts';
import type { SubscriberPreferences } from '../plugin-api/preferences.ts';

/** What a lane asks of the feeds' renderers: an event as one subscriber reads it. */
export interface SubscriberRendering {
  /**
   * The stored (English) rendering unless the subscriber chose another
   * language or zone, or never got earlier events of the item (`missed`:
   * the message then says what they missed).
   */
  forSubscriber(
    eventId: number,
    event: NotificationEvent,
    stored: RenderedNotification,
    preferences: SubscriberPreferences | null | undefined,
    missed?: readonly NotificationEvent[],
  ): RenderedNotification;
}
