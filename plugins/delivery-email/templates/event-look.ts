import type { FeedCatalogPort } from '#plugin-api';

/**
 * How a notification email looks for its event: the banner's words and
 * colour, and the sentence that says why it came. The feed declares them
 * (its manifest's presentation, read through the plugin API's feed
 * catalog): this plugin names no feed. Resolved when the email is composed,
 * from the key its outbox item keeps.
 */
export interface EventLook {
  readonly label: string;
  readonly intro: string;
  readonly accent: string;
}

/** What an outbox item keeps to find its look again at send time: `<feedId>/<eventType>`. */
export const lookKey = (feedId: string, eventType: string) => `${feedId}/${eventType}`;

const GREY = '#475467';
const BLUE = '#1d4ed8';
/** Core's /test event, of any feed. */
const TEST_LOOK: EventLook = { label: 'Test', intro: 'A test of your subscription: real notifications arrive the same way.', accent: GREY };
/** A feed or type no longer installed, or one of core's own feeds. */
export const GENERIC_LOOK: EventLook = { label: 'Notification', intro: 'News from a feed you follow.', accent: BLUE };

export function eventLook(feeds: FeedCatalogPort, key: string): EventLook {
  const cut = key.lastIndexOf('/');
  const feedId = key.slice(0, cut);
  const eventType = key.slice(cut + 1);
  if (eventType === 'Test') return TEST_LOOK;
  const type = feeds.get(feedId)?.eventTypes.find((entry) => entry.type === eventType);
  return type ? { label: type.label, intro: type.intro || type.hint || GENERIC_LOOK.intro, accent: type.accent } : GENERIC_LOOK;
}
