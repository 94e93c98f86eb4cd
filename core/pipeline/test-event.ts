import { randomUUID } from 'node:crypto';
import type { NotificationEvent, RenderedNotification } from '../plugin-api/feed-types.ts';
import type { Translate } from '../i18n/index.ts';

/** Core's own event type for `/test`: every feed accepts it, core renders it. */
export const TEST_EVENT_TYPE = 'Test';

export function createTestEvent(feedId: string, feedName: string, subscriptionName: string): NotificationEvent {
  return {
    feedId,
    eventType: TEST_EVENT_TYPE,
    sourceKey: `test-${randomUUID()}`,
    fields: {},
    sourcePayload: { feedName, subscriptionName },
  };
}

/** The test notification in the words `t` gives (core's messages in the subscriber's language), naming the feed as `feedName` does (else as the event was made). */
export function renderTestEvent(event: NotificationEvent, t: Translate, feedName?: string): RenderedNotification {
  const payload = event.sourcePayload as { feedName: string; subscriptionName: string };
  return {
    title: t('test.title', { name: payload.subscriptionName }),
    body: t('test.body', { feed: feedName ?? payload.feedName }),
    sequenceId: event.sourceKey,
    tags: ['test_tube'],
    priority: 'Default',
  };
}
