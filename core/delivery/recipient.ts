import type { SubscriptionRecipient, SubscriptionScope } from '../plugin-api/delivery-types.ts';
import { DEFAULT_LOCALE, isLocale } from '../i18n/index.ts';
import type { SubscriberPreferences } from '../plugin-api/preferences.ts';

/** The subscription columns a delivery target is shown. */
export interface RecipientColumns {
  public_id: string;
  display_name: string;
  feed_id: string;
  provider: string;
  destination: string;
  scope: SubscriptionScope;
  /** What the subscriber decided (their language is handed on); absent: nothing. */
  preferences?: SubscriberPreferences | null;
  /** An escalation step's row: `destination` is the step's. */
  escalation_step?: boolean;
}

/** What a delivery target sees of a subscription row (ids come back as strings from some drivers). */
export function toRecipient(id: number | string, row: RecipientColumns): SubscriptionRecipient {
  return {
    id: Number(id),
    publicId: row.public_id,
    displayName: row.display_name,
    feedId: row.feed_id,
    provider: row.provider,
    destination: row.destination,
    scope: row.scope,
    language: isLocale(row.preferences?.language) ? row.preferences.language : DEFAULT_LOCALE,
    ...(row.escalation_step ? { escalationStep: true } : {}),
  };
}
