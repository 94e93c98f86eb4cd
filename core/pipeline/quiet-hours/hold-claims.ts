import type { SubscriberPreferences } from '../../plugin-api/preferences.ts';
import type { QuietHours } from './quiet-hours.ts';

/** A subscription's quiet hours with their zone resolved (theirs, the subscriber's zone, else the feed's), or null. */
export function quietHoursOf(preferences: SubscriberPreferences | null | undefined, feedZone: string): QuietHours | null {
  const quiet = preferences?.quietHours;
  if (!quiet) return null;
  return { start: quiet.start, end: quiet.end, timeZone: quiet.timeZone ?? preferences?.timeZone ?? feedZone };
}
