import { createHash } from 'node:crypto';
import { plainLines, singleLine, type NotificationPriority, type RenderedNotification } from '#plugin-api';
import { TOPIC_PATTERN } from './topic-policy.ts';

/** The push server's message text limit: longer text becomes an attachment or is refused. */
export const MESSAGE_LIMIT_BYTES = 4096;
/** ntfy's JSON publish body limit (413, 41303 past it). */
export const BODY_LIMIT_BYTES = 8192;
/** Titles have no limit of their own, but must leave room in the body for the message. */
export const TITLE_LIMIT_BYTES = 1024;
const ELLIPSIS = '…';

const PRIORITY_LEVELS: Readonly<Record<NotificationPriority, number>> = { Min: 1, Low: 2, Default: 3, High: 4, Urgent: 5 };

/** The JSON publish body (push-server.md, "Publishing"). */
export interface PublishBody {
  readonly topic: string;
  readonly title: string;
  readonly message: string;
  readonly priority: number;
  readonly tags: readonly string[];
  readonly sequence_id: string;
}

export function priorityLevel(priority: NotificationPriority): number {
  return PRIORITY_LEVELS[priority] ?? PRIORITY_LEVELS.Default;
}

/**
 * Cuts text to at most `maxBytes` of UTF-8, never inside a character, and
 * ends a cut text with an ellipsis that counts toward the limit.
 */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const room = maxBytes - Buffer.byteLength(ELLIPSIS);
  if (room <= 0) return '';
  const bytes = Buffer.from(text);
  let end = room;
  // Step back over continuation bytes (10xxxxxx) to the start of a character.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8') + ELLIPSIS;
}

/**
 * The sequence id that makes a later message of one source item replace the
 * earlier one on the phone (a Restoration its NewOutage), and a duplicate
 * after a lost answer replace rather than add. The renderer's id is used as
 * it is when the server accepts it; otherwise a hash of feed and id (rewriting
 * characters instead could make two items collide).
 */
export function sequenceIdFor(feedId: string, renderedSequenceId: string): string {
  if (TOPIC_PATTERN.test(renderedSequenceId)) return renderedSequenceId;
  return `h${createHash('sha256').update(`${feedId}:${renderedSequenceId}`).digest('base64url').slice(0, 32)}`;
}

/** Builds the body; text is cut so the message fits 4096 bytes and the whole body 8192. */
export function buildPublishBody(topic: string, feedId: string, rendered: RenderedNotification, fallbackItemKey: string): PublishBody {
  const body = {
    topic,
    // One line of title and plain lines of text on the phone: no control character, terminal escape or bidirectional override gets through.
    title: truncateUtf8(singleLine(rendered.title), TITLE_LIMIT_BYTES),
    message: truncateUtf8(plainLines(rendered.body), MESSAGE_LIMIT_BYTES),
    priority: priorityLevel(rendered.priority),
    tags: [...rendered.tags],
    sequence_id: sequenceIdFor(feedId, rendered.sequenceId || fallbackItemKey),
  };
  // JSON escaping can grow text up to 6-fold (\u0000): only a body that might overflow is serialized
  // here (the publisher serializes it anyway), and its message shrunk until the body fits.
  // 256: field names, punctuation, a 64-character topic and sequence id; 3 a tag: quotes and comma.
  const text = Buffer.byteLength(body.title) + Buffer.byteLength(body.message) + Buffer.byteLength(body.tags.join(''));
  const worstCase = 6 * text + 3 * body.tags.length + 256;
  if (worstCase <= BODY_LIMIT_BYTES) return body;
  let overshoot = Buffer.byteLength(JSON.stringify(body)) - BODY_LIMIT_BYTES;
  while (overshoot > 0 && body.message !== '') {
    body.message = truncateUtf8(body.message, Math.max(0, Buffer.byteLength(body.message) - overshoot));
    overshoot = Buffer.byteLength(JSON.stringify(body)) - BODY_LIMIT_BYTES;
  }
  return body;
}
