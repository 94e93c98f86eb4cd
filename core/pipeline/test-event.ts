import { randomUUID } from 'node:crypto';
import type { NotificationEvent, RenderedNotification } from '../plugin-api/feed-types.ts';

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

export function renderTestEvent(event: NotificationEvent): RenderedNotification {
  const { feedName, subscriptionName } = event.sourcePayload as { feedName: string; subscriptionName: string };
  return {
    title: `Test notification: ${subscriptionName}`,
    body: `This is a test of your subscription to ${feedName}. Real notifications will arrive the same way.`,
    sequenceId: event.sourceKey,
    tags: ['test_tube'],
    priority: 'Default',
  };
}
