import { DEFAULT_LOCALE } from '../i18n/index.ts';
import type { SubscriberPreferences } from '../plugin-api/preferences.ts';

/**
 * The preferences a message is written by: the subscriber's language when
 * the target can present it (a voice gateway has voices for some), else
 * English (pure).
 */
export function inLanguageOf(
  preferences: SubscriberPreferences | null | undefined,
  spoken: readonly string[] | undefined,
): SubscriberPreferences | null | undefined {
  if (!spoken || !preferences?.language || spoken.includes(preferences.language)) return preferences;
  return { ...preferences, language: DEFAULT_LOCALE };
}
