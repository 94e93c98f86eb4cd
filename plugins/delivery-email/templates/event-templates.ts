/**
 * One template per event type of each feed: the banner, its colour and the
 * sentence that says why the email came. The title and body are the feed
 * renderer's (the same text the push message carries); the layout is shared.
 * A plugin never imports another, so the feeds are named here by id; a feed
 * or type added later gets the generic template until it has its own.
 */
export interface EventTemplate {
  /** Stored with each outbox item: the email is composed from it at send time. */
  readonly key: string;
  readonly accent: string;
  readonly label: string;
  readonly intro: string;
}

const RED = '#b42318';
const GREEN = '#027a48';
const AMBER = '#b54708';
const BLUE = '#1d4ed8';
const GREY = '#475467';

const POWER = 'utility.power-outages';
const SCHEDULED = 'utility.scheduled-outages';

/** Display names of the known feeds, for the verification email. */
export const FEED_NAMES: Readonly<Record<string, string>> = { [POWER]: 'Power outages', [SCHEDULED]: 'Scheduled outages' };

const template = (feedId: string, eventType: string, accent: string, label: string, intro: string): EventTemplate =>
  Object.freeze({ key: `${feedId}/${eventType}`, accent, label, intro });

const TEMPLATES: readonly EventTemplate[] = [
  template(POWER, 'NewOutage', RED, 'Power outage', 'An outage was reported in an area you follow.'),
  template(POWER, 'EstimateUpdated', AMBER, 'New restoration estimate', 'The utility changed its estimate of when power comes back after an outage in an area you follow.'),
  template(POWER, 'Restoration', GREEN, 'Power restored', 'Power is back after an outage in an area you follow.'),
  template(POWER, 'RestoredAnnouncement', GREEN, 'Outage over', 'An outage in an area you follow was reported after power was already back.'),
  template(POWER, 'ManualAnnouncement', BLUE, 'Announcement', 'An announcement from the utility about an area you follow.'),
  template(SCHEDULED, 'NewEntry', AMBER, 'Planned outage', 'Work that cuts power was scheduled in an area you follow.'),
  template(SCHEDULED, 'Updated', AMBER, 'Planned outage changed', 'The time, area or feeder of a planned outage you follow changed.'),
  template(SCHEDULED, 'Cancelled', GREY, 'Planned outage cancelled', 'A planned outage you were told about will not take place.'),
  template(SCHEDULED, 'WeeklyDigest', BLUE, 'This week', 'The planned outages of the coming week in the areas you follow.'),
  template(SCHEDULED, 'DailyUpdate', BLUE, 'Today', "Today's planned outages in the areas you follow."),
  template(SCHEDULED, 'DayBeforeReminder', AMBER, 'Tomorrow', 'A reminder: power will be cut tomorrow in an area you follow.'),
  // Core's /test event, of any feed.
  template('*', 'Test', GREY, 'Test', 'A test of your subscription: real notifications arrive the same way.'),
];

export const GENERIC_TEMPLATE: EventTemplate = template('*', '*', BLUE, 'Notification', 'News from a feed you follow.');

const byKey = new Map(TEMPLATES.map((entry) => [entry.key, entry]));

export function eventTemplateFor(feedId: string, eventType: string): EventTemplate {
  return byKey.get(`${feedId}/${eventType}`) ?? byKey.get(`*/${eventType}`) ?? GENERIC_TEMPLATE;
}

/** The template an item was queued with; one removed since falls back to the generic one. */
export function eventTemplateByKey(key: string): EventTemplate {
  return byKey.get(key) ?? GENERIC_TEMPLATE;
}

export const ALL_EVENT_TEMPLATES: readonly EventTemplate[] = [...TEMPLATES, GENERIC_TEMPLATE];
