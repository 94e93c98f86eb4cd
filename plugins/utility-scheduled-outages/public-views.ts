import { scheduledOutageMap } from './map-view.ts';
import type { FeedPublicViews, SectionsConfig } from '#plugin-api';
import { scheduledOutageAlerts } from './cap-alerts.ts';
import { scheduledOutageCalendar } from './calendar-view.ts';
import type { scheduledOutagesConfig } from './config.ts';

/** The planned outages in people's calendars, and every event as a CAP alert. */
export const scheduledOutagePublicViews: FeedPublicViews<SectionsConfig<typeof scheduledOutagesConfig>> = {
  calendar: scheduledOutageCalendar,
  alerts: scheduledOutageAlerts,
  map: scheduledOutageMap,
};
