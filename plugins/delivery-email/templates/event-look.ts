import type { FeedCatalogPort, Translate } from '#plugin-api';

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

/**
 * The look of the event the key names, in `language`: the feed's words
 * (its catalog in that language), or this plugin's own (`t`: its locales'
 * `look.test.*` for core's /test event, `look.generic.*` for a feed or type
 * no longer installed, or one of core's own feeds).
 */
export function eventLook(feeds: FeedCatalogPort, key: string, language: string, t: Translate): EventLook {
  const cut = key.lastIndexOf('/');
  const feedId = key.slice(0, cut);
  const eventType = key.slice(cut + 1);
  const generic = { label: t('look.generic.label'), intro: t('look.generic.intro'), accent: BLUE };
  if (eventType === 'Test') return { label: t('look.test.label'), intro: t('look.test.intro'), accent: GREY };
  const type = feeds.get(feedId, language)?.eventTypes.find((entry) => entry.type === eventType);
  return type ? { label: type.label, intro: type.intro || type.hint || generic.intro, accent: type.accent } : generic;
}
