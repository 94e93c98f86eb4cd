import type { DeliveryRequest } from '#plugin-api';

/** The JSON body of one delivery (pure): Standard Webhooks' `{ type, timestamp, data }`. */
export function webhookBody(request: DeliveryRequest, at: Date): string {
  const { event, rendered } = request;
  return JSON.stringify({
    type: `${event.feedId}.${event.eventType}`,
    timestamp: at.toISOString(),
    data: {
      feedId: event.feedId,
      eventType: event.eventType,
      sourceKey: event.sourceKey,
      title: rendered.title,
      body: rendered.body,
      priority: rendered.priority,
      tags: rendered.tags,
      sequenceId: rendered.sequenceId,
      fields: event.fields,
    },
  });
}

/** The delivery's id: the same on every attempt of one ledger row, so a receiver can drop a retry it already has. */
export const webhookId = (ledgerId: number): string => `msg_${ledgerId}`;
