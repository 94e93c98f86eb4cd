import { createHash } from 'node:crypto';
import type { DeliveryRequest } from '#plugin-api';

/** What the service worker gets, decrypted: `{ title, body, tag, priority, url }`, `tag` the sequence id. Pure. */
export function pushPayload(request: DeliveryRequest, manageUrl: string): string {
  const { rendered } = request;
  return JSON.stringify({ title: rendered.title, body: rendered.body, tag: rendered.sequenceId, priority: rendered.priority, url: manageUrl });
}

/**
 * The `Topic` header (RFC 8030): a later message with the same topic
 * replaces one the push service still holds, so a restoration replaces an
 * outage notice a browser has not fetched yet. At most 32 base64url
 * characters: the sequence id itself when it is one, else a digest of it.
 */
export function pushTopic(sequenceId: string): string {
  return /^[A-Za-z0-9_-]{1,32}$/.test(sequenceId) ? sequenceId : createHash('sha256').update(sequenceId).digest('base64url').slice(0, 32);
}

/** `Urgency`: high for High and Urgent messages (a phone wakes for them), normal for the rest. */
export const pushUrgency = (priority: string): 'high' | 'normal' => (priority === 'High' || priority === 'Urgent' ? 'high' : 'normal');
