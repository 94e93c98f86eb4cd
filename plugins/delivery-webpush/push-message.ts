import { createHash } from 'node:crypto';
import type { DeliveryRequest } from '#plugin-api';

/** What the service worker gets, decrypted: `{ title, body, tag, priority, url }`, `tag` the sequence id. Pure. */
export function pushPayload(request: DeliveryRequest, manageUrl: string): string {
  const { rendered } = request;
  const payload = (body: string) =>
    JSON.stringify({ title: rendered.title.slice(0, 200), body, tag: rendered.sequenceId, priority: rendered.priority, url: manageUrl });
  // Push services take about 4 KiB of encrypted payload: a long body is cut (by code points) so the message still goes.
  let chars = Array.from(rendered.body);
  let body = rendered.body;
  while (Buffer.byteLength(payload(body)) > MAX_PAYLOAD_BYTES && chars.length > 0) {
    chars = chars.slice(0, Math.floor(chars.length * 0.8));
    body = chars.length > 0 ? `${chars.join('').trimEnd()}…` : '';
  }
  return payload(body);
}

/** What is left of a push service's 4,096 bytes once encryption adds its header, padding delimiter and tag. */
export const MAX_PAYLOAD_BYTES = 3_800;

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
