import { createTranslator, DEFAULT_LOCALE, isLocale, type MessageCatalog } from './messages.ts';
/**
 * What people see of a feed, declared by the feed itself (its manifest's
 * `presentation`) and read by every page and target through the plugin
 * API: no target names a feed, and a feed added later looks right
 * everywhere at once.
 */

/** One event type, for people. */
export interface EventTypePresentation {
  /** A few words: the subscribe page's checkbox, the email's banner ("Power restored"). Types with the same label are one choice on the page. */
  readonly label: string;
  /** One line saying when it comes ("When power comes back in your area"). */
  readonly hint: string;
  /** The sentence under an email's title saying why it came. Default: the hint. */
  readonly intro?: string;
  /** The colour of the email's banner, `#rrggbb`. Default: the feed's accent. */
  readonly accent?: string;
}

export interface FeedPresentation {
  /** Per event type of the feed; a type not listed shows its name in words. */
  readonly eventTypes?: Readonly<Record<string, EventTypePresentation>>;
  /** The banner colour of the feed's emails, `#rrggbb`. Default blue. */
  readonly accent?: string;
}

/** A feed as pages and targets read it: its catalog entry with its presentation resolved (nothing missing). */
export interface FeedInfo {
  readonly id: string;
  readonly displayName: string;
  readonly eventTypes: readonly ResolvedEventType[];
  /** Event types delivered at once even in a subscriber's quiet hours. */
  readonly urgentEventTypes: readonly string[];
  /** The IANA zone the feed's times are in (the feed's own setting, UTC when it has none). */
  readonly timeZone: string;
  /** Whether the feed publishes a calendar (calendar.ics). */
  readonly hasCalendar: boolean;
  /** Whether the feed publishes its items' shapes (outages.geojson, the map). */
  readonly hasMap: boolean;
}

export interface ResolvedEventType {
  readonly type: string;
  readonly label: string;
  readonly hint: string;
  readonly intro: string;
  readonly accent: string;
}

/**
 * Read-only: the installed feeds as people see them (display names, event
 * types in words, zones), in a language of `GET /api/locales` when one is
 * asked for: a feed's own `locales/<code>.json` says `feed.displayName`,
 * `eventType.<Type>.label`, `.hint` and `.intro`; what it does not say is
 * its declared (English) word.
 */
export interface FeedCatalogPort {
  get(feedId: string, language?: string): FeedInfo | undefined;
  all(language?: string): readonly FeedInfo[];
}

const DEFAULT_ACCENT = '#1d4ed8';

/** `NewOutage` → `New outage`, `DayBeforeReminder` → `Day before reminder`: what a type without a label shows. Pure. */
export function eventTypeWords(eventType: string): string {
  const words = eventType
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean);
  return words.map((word, index) => (index === 0 ? word : /^[A-Z]+$/.test(word) && word.length > 1 ? word : word.toLowerCase())).join(' ');
}

/** Every event type of a feed with its label, hint, intro and accent, defaults filled in. Pure. */
export function resolveEventTypes(eventTypes: readonly string[], presentation: FeedPresentation | undefined): ResolvedEventType[] {
  const accent = presentation?.accent ?? DEFAULT_ACCENT;
  return eventTypes.map((type) => {
    const declared = presentation?.eventTypes?.[type];
    const label = declared?.label ?? eventTypeWords(type);
    const hint = declared?.hint ?? '';
    return { type, label, hint, intro: declared?.intro ?? hint, accent: declared?.accent ?? accent };
  });
}

/** A feed as the catalog is built from it: its entry, and what its manifest (and config) say of it. */
export interface FeedEntry {
  readonly id: string;
  readonly displayName: string;
  readonly eventTypes: readonly string[];
  readonly presentation?: FeedPresentation;
  readonly urgentEventTypes?: readonly string[];
  readonly timeZone?: string;
  readonly hasCalendar?: boolean;
  readonly hasMap?: boolean;
  /** The feed's own messages (its `locales/`): its words in other languages. */
  readonly messages?: MessageCatalog;
}

/**
 * A feed catalog (the `feeds` port) of these feeds, everything resolved
 * once: how core builds the installed feeds' catalog, and how a target's
 * tests build one of their own (`feedCatalogOf`).
 */
export function feedCatalogOf(entries: readonly FeedEntry[]): FeedCatalogPort {
  const infosIn = (language: string): FeedInfo[] =>
    entries.map((entry) => {
      const said = saidIn(entry.messages, language);
      return Object.freeze({
        id: entry.id,
        displayName: said('feed.displayName') ?? entry.displayName,
        eventTypes: Object.freeze(
          resolveEventTypes(entry.eventTypes, entry.presentation).map((type) => {
            const word = (part: 'label' | 'hint' | 'intro') => said(`eventType.${type.type}.${part}`);
            const hint = word('hint') ?? type.hint;
            // The intro defaults to the hint, in this language too.
            const intro = word('intro') ?? entry.presentation?.eventTypes?.[type.type]?.intro ?? hint;
            return Object.freeze({ ...type, label: word('label') ?? type.label, hint, intro });
          }),
        ),
        urgentEventTypes: Object.freeze([...(entry.urgentEventTypes ?? [])]),
        timeZone: entry.timeZone ?? 'UTC',
        hasCalendar: entry.hasCalendar ?? false,
        hasMap: entry.hasMap ?? false,
      });
    });
  // Each language resolved once, on first ask.
  const byLanguage = new Map<string, { infos: FeedInfo[]; byId: Map<string, FeedInfo> }>();
  const resolved = (language: string | undefined) => {
    const code = isLocale(language) ? language : DEFAULT_LOCALE;
    let found = byLanguage.get(code);
    if (!found) {
      const infos = infosIn(code);
      byLanguage.set(code, (found = { infos, byId: new Map(infos.map((info) => [info.id, info])) }));
    }
    return found;
  };
  return Object.freeze({
    get: (feedId: string, language?: string) => resolved(language).byId.get(feedId),
    all: (language?: string) => resolved(language).infos,
  });
}

/** A feed's own word for a key in a language (English where that language lacks it), or undefined when its locales have none. */
function saidIn(messages: MessageCatalog | undefined, language: string): (key: string) => string | undefined {
  if (!messages || messages.size === 0) return () => undefined;
  const t = createTranslator(messages, language);
  return (key) => {
    const said = t(key);
    return said === key ? undefined : said;
  };
}
