import { feedMonitorSettings, TimeZoneSetting, Type } from '#plugin-api';

const Hour = (description: string, fallback: number) => Type.Integer({ minimum: 0, maximum: 23, default: fallback, description });

export const scheduledOutagesConfig = {
  ScheduledOutages: Type.Object({
    ...feedMonitorSettings('scheduled-outage feed', { sharedSource: true }),
    TimeZone: TimeZoneSetting('IANA zone of digest and reminder hours.'),
    DailyDigestHour: Hour('Local hour of the daily update.', 6),
    WeeklyDigestDay: Type.Union(
      ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((day) => Type.Literal(day)),
      { default: 'Monday', description: 'Local day of the weekly digest.' },
    ),
    WeeklyDigestHour: Hour('Local hour of the weekly digest.', 7),
    ReminderHour: Hour('Local hour of the day-before reminders.', 18),
    ConfirmNoticeDays: Type.Integer({
      minimum: 0,
      maximum: 14,
      default: 4,
      description: 'Days ahead (by local date) a planned outage is noticed to subscribers who confirm; they are reminded daily until they do. 0: no notices.',
    }),
    ConfirmNoticeHour: Type.Integer({
      minimum: 0,
      maximum: 20,
      default: 9,
      description: 'Local hour from which notices to confirm go (until 21:00: never at night, a notice may be a phone call).',
    }),
  }),
};
