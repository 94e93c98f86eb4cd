import { createHash, timingSafeEqual } from 'node:crypto';
import { Errors } from '../errors.ts';
import type { Caller } from '../http/caller-auth.ts';
import type { FeedPluginManifest } from '../plugin-api/manifest.ts';
import { FILTER_FIELD_OF, type SubscriptionFilter } from '../pipeline/subscription-filter.ts';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * What the JSON schema cannot know: the feed exists, the event types are
 * the feed's, and each filter property targets a field the feed can be
 * filtered by. Throws a 400 naming the field.
 */
export function checkFilterAgainstFeed(feedId: string, feed: FeedPluginManifest | undefined, filter: SubscriptionFilter): void {
  if (!feed) throw new Errors.UnknownFeed(feedId);
  (filter.eventTypes ?? []).forEach((type, index) => {
    if (!feed.feed.eventTypes.includes(type)) {
      throw new Errors.InvalidField(`body/filter/eventTypes/${index}: "${type}" is not an event type of ${feedId} (${feed.feed.eventTypes.join(', ')})`);
    }
  });
  for (const [property, field] of Object.entries(FILTER_FIELD_OF)) {
    const values = filter[property as keyof SubscriptionFilter];
    if (field && values && values.length > 0 && !feed.feed.filterableFields.includes(field)) {
      throw new Errors.InvalidField(`body/filter/${property}: ${feedId} cannot be filtered by ${field}`);
    }
  }
}

export interface AccessSubject {
  owner_user_id: string | null;
  manage_token_hash: string | null;
}

/**
 * Who may read, delete or test a subscription: an admin, its owner (JWT
 * sub), or whoever holds its manage token (X-Subscription-Token). No
 * credentials: 401; credentials that do not fit: 403.
 */
export function authorizeAccess(subject: AccessSubject, caller: Caller, manageToken: string | undefined): void {
  if (caller.kind === 'user' && caller.admin) return;
  if (manageToken !== undefined) {
    const expected = subject.manage_token_hash ? Buffer.from(subject.manage_token_hash, 'hex') : Buffer.alloc(0);
    const given = Buffer.from(hashToken(manageToken), 'hex');
    if (expected.length === given.length && timingSafeEqual(expected, given)) return;
    throw new Errors.Forbidden('the subscription token does not match');
  }
  if (caller.kind === 'user') {
    if (subject.owner_user_id === caller.userId) return;
    throw new Errors.Forbidden('this subscription belongs to someone else');
  }
  throw new Errors.Unauthorized('send the X-Subscription-Token header or a bearer token');
}
