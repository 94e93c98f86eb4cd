import type { FeedPresentation } from '#plugin-api';

const AMBER = '#b54708';
const BLUE = '#1d4ed8';
const GREY = '#475467';

/** The feed's event types for people: the subscribe page's choices and the emails' banners. */
export const scheduledOutagePresentation: FeedPresentation = {
  accent: AMBER,
  eventTypes: {
    NewEntry: {
      label: 'Planned outage',
      hint: 'When work that cuts power is planned in your area.',
      intro: 'Work that cuts power was scheduled in an area you follow.',
      accent: AMBER,
    },
    Updated: {
      label: 'Planned outage changed',
      hint: 'When the date, time or area of a planned outage changes.',
      intro: 'The time, area or feeder of a planned outage you follow changed.',
      accent: AMBER,
    },
    Cancelled: {
      label: 'Planned outage cancelled',
      hint: 'When a planned outage will not take place.',
      intro: 'A planned outage you were told about will not take place.',
      accent: GREY,
    },
    WeeklyDigest: {
      label: 'Weekly summary',
      hint: 'Once a week: the planned outages of the coming week.',
      intro: 'The planned outages of the coming week in the areas you follow.',
      accent: BLUE,
    },
    DailyUpdate: {
      label: 'Daily summary',
      hint: "Every morning: the day's planned outages.",
      intro: "Today's planned outages in the areas you follow.",
      accent: BLUE,
    },
    DayBeforeReminder: {
      label: 'Reminder the day before',
      hint: 'The day before a planned outage in your area.',
      intro: 'A reminder: power will be cut tomorrow in an area you follow.',
      accent: AMBER,
    },
    ConfirmNotice: {
      label: 'Notice to confirm (utility’s register)',
      hint: 'Only for people the utility registered as relying on power: notice days ahead, until they confirm it.',
      intro: 'Power will be cut in your area. Please confirm that you got this notice.',
      accent: AMBER,
    },
  },
};
