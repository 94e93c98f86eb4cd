import { createHash, timingSafeEqual } from 'node:crypto';
import { Errors } from '../errors.ts';
import { stripBidiControls } from '../plugin-api/user-text.ts';
import type { Caller } from '../http/caller-auth.ts';
import type { FeedPluginManifest } from '../plugin-api/manifest.ts';
import { filterFieldsOf, isLegacyFilterId } from '../plugins/filter-fields.ts';
import type { SubscriptionFilter } from '../matching/index.ts';
import type { SubscriberPreferences } from '../plugin-api/preferences.ts';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// What shows nothing: spaces, and format characters (zero-width space, joiners, byte-order mark, bidirectional marks).
const INVISIBLE = /[\p{Z}\p{Cf}\s]/gu;

/**
 * A display name as it is stored (pure): bidirectional overrides removed
 * (they make a name read differently wherever it is shown), trimmed. A
 * name with a line break or another control character is a 400 (it would
 * start a line of its own in a calendar or an email), and so is one that
 * shows nothing (only spaces or zero-width characters).
 */
export function checkDisplayName(value: string, field = 'body/displayName'): string {
  const name = stripBidiControls(value).trim();
  if (CONTROL.test(name)) throw new Errors.InvalidField(`${field} must be one line, without control characters`);
  if (name.replace(INVISIBLE, '') === '') throw new Errors.InvalidField(`${field} must not be blank`);
  return name;
}

/**
 * What the JSON schema cannot know: the feed exists, the event types are
 * the feed's, and each filter property (`feeders`, `fields.route`) is a
 * field the feed declares. Throws a 400 naming the field.
 */
export function checkFilterAgainstFeed(feedId: string, feed: FeedPluginManifest | undefined, filter: SubscriptionFilter): void {
  if (!feed) throw new Errors.UnknownFeed(feedId);
  (filter.eventTypes ?? []).forEach((type, index) => {
    if (!feed.feed.eventTypes.includes(type)) {
      throw new Errors.InvalidField(`body/filter/eventTypes/${index}: "${type}" is not an event type of ${feedId} (${feed.feed.eventTypes.join(', ')})`);
    }
  });
  const declared = filterFieldsOf(feed.feed).map((field) => field.id);
  const cannot = (at: string, id: string) => {
    const offer =
      declared.length === 0
        ? 'it declares no filter fields'
        : `its filter fields are ${declared.map((known) => (isLegacyFilterId(known) ? known : `fields.${known}`)).join(', ')}`;
    return new Errors.InvalidField(`body/filter/${at}: ${feedId} cannot be filtered by ${id} (${offer})`);
  };
  for (const id of ['feeders', 'locationKeywords', 'keywords'] as const) {
    if ((filter[id]?.length ?? 0) > 0 && !declared.includes(id)) throw cannot(id, id);
  }
  for (const id of Object.keys(filter.fields ?? {})) {
    if (isLegacyFilterId(id) || !declared.includes(id)) throw cannot(`fields/${id}`, id);
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

/** A zone this runtime knows, or a 400 naming the field. */
function checkZone(zone: string, field: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    throw new Errors.InvalidField(`${field}: "${zone}" is not an IANA time zone (such as Asia/Colombo)`);
  }
}

/** What the JSON schema cannot know of preferences: real zones, and quiet hours that are not empty. Throws a 400 naming the field. */
export function checkPreferences(preferences: SubscriberPreferences): SubscriberPreferences {
  if (preferences.timeZone !== undefined) checkZone(preferences.timeZone, 'body/preferences/timeZone');
  const quiet = preferences.quietHours;
  if (quiet) {
    if (quiet.timeZone !== undefined) checkZone(quiet.timeZone, 'body/preferences/quietHours/timeZone');
    if (quiet.start === quiet.end)
      throw new Errors.InvalidField('body/preferences/quietHours/end must differ from start (a start after the end wraps midnight)');
  }
  return preferences;
}
