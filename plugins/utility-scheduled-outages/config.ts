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
  }),
};
