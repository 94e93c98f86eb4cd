import type { AreaGeometry } from './shape-types.ts';
import type { Translate } from './messages.ts';
/** The catalog and event vocabulary shared by core and every feed plugin. */
export const FILTERABLE_FIELDS = ['Feeder', 'Area', 'Keywords'] as const;
export type FilterableField = (typeof FILTERABLE_FIELDS)[number];

/** How a filter field's values meet the event's `fields.<id>`: one of its comma-separated values equal, or a part of its text. */
export const FILTER_MATCHES = ['equals', 'contains'] as const;
export type FilterMatch = (typeof FILTER_MATCHES)[number];

/**
 * A field people filter a feed by, in the feed's own words (a transit
 * feed's `route`, a water board's `zone`). A subscription sets it as
 * `filter.fields.<id>`: a list of values, any of which may match the
 * event's `fields.<id>` (case-insensitive); several fields must all match.
 * The words may also be in the feed's locales (`filter.<id>.label`,
 * `.hint`, `.example`); these are the English ones.
 *
 * Three ids are the ones core knew before feeds had words of their own, set
 * on a filter as `filter.feeders`, `filter.locationKeywords` and
 * `filter.keywords` and matched as ever: `feeders` (equals `fields.feeder`
 * or one of `fields.feeders`), `locationKeywords` (part of `fields.area` or
 * `fields.areas`) and `keywords` (part of any field).
 */
export interface FilterFieldDefinition {
  /** camelCase, up to 40 characters: the key in `filter.fields` and in the event's `fields`. */
  readonly id: string;
  /** A few words: the field's label on the subscribe page ("Routes"). */
  readonly label: string;
  /** One line under it ("Comma-separated route numbers. Leave empty for every route."). */
  readonly hint?: string;
  /** What people might type ("12, 138"). */
  readonly example?: string;
  readonly match: FilterMatch;
}

export interface NotificationFeedDefinition {
  /** Dotted id, for example `utility.power-outages`. */
  readonly id: string;
  readonly displayName: string;
  readonly eventTypes: readonly string[];
  /**
   * The fields people filter it by, in its own words (see
   * FilterFieldDefinition): the subscribe and manage pages, the API's
   * checks and the matching read them.
   */
  readonly filterFields?: readonly FilterFieldDefinition[];
  /**
   * The older way, for a feed without `filterFields`: which of core's three
   * fields it takes (`Feeder`, `Area`, `Keywords`), in core's words.
   */
  readonly filterableFields?: readonly FilterableField[];
}

export interface NotificationEvent<TPayload = unknown> {
  readonly feedId: string;
  readonly eventType: string;
  /** Stable key of what is announced: the provider id, or `daily-2026-11-22`-like keys for digests. */
  readonly sourceKey: string;
  /** The source item the event is about (defaults to sourceKey): groups coalescing of Updated events. */
  readonly itemKey?: string;
  /**
   * What filters match: a text per filter field id (`route: '12, 138'`,
   * one value or comma-separated ones), and for the three fields core knew
   * first `feeder`/`feeders` and `area`/`areas`; keywords look in all of them.
   */
  readonly fields: Readonly<Record<string, string>>;
  readonly sourcePayload: TPayload;
  /**
   * This event is urgent whatever its type (a severe disruption): it goes
   * before the non-urgent backlog of each lane and through quiet hours, as
   * the types the feed's manifest marks urgent do.
   */
  readonly urgent?: boolean;
  /**
   * A notice that must be heard (a planned outage, to the people on the
   * utility's register): an ISO 8601 instant (the outage's start). Only
   * subscribers who confirm (`preferences.confirm`) whose filter matches
   * get it; each is asked to confirm it, and reminded every 24 hours on
   * their own channel until they do or until this time, then their
   * escalation runs (plugin API 5).
   */
  readonly confirmBy?: string;
  /**
   * Where the item is: an RFC 7946 Polygon or MultiPolygon in WGS 84
   * (`[lon, lat]`), as the feed's answer gave it (checked with `FeedGeometry`).
   * A subscription's places match it when it comes within their radius;
   * an event without one never matches a place.
   */
  readonly geometry?: AreaGeometry;
}

/**
 * A feed's verdict on whether one subscriber is told an event (manifest
 * `worthTelling`): told, or not, with the reason in words ("the estimate
 * moved 10 minutes, less than 30"), which the ledger keeps and the trace shows.
 */
export type TellVerdict = { readonly tell: true } | { readonly tell: false; readonly reason: string };

/** One thing going on now that a feed reports (manifest `ongoing`): matched like an event, told in one line. */
export interface OngoingItem {
  /** What a subscription's filter is matched against (the item's latest event, as the mapper makes it). */
  readonly event: NotificationEvent;
  /** One line for people, plain text. */
  readonly summary: string;
}

export const NOTIFICATION_PRIORITIES = ['Min', 'Low', 'Default', 'High', 'Urgent'] as const;
export type NotificationPriority = (typeof NOTIFICATION_PRIORITIES)[number];

export interface RenderedNotification {
  readonly title: string;
  /** May hold several lines. */
  readonly body: string;
  /** Per source item, so a later message replaces an earlier one (a Restoration its NewOutage). */
  readonly sequenceId: string;
  readonly tags: readonly string[];
  readonly priority: NotificationPriority;
}

export interface RenderContext<TConfig> {
  /** The plugin's own configuration sections. */
  readonly config: TConfig;
  /**
   * The subscriber's language (a code of LOCALES); core renders each event
   * once in English for the ledger, and again per language and zone its
   * subscribers chose. Absent: English.
   */
  readonly locale?: string;
  /** The zone to write times in: the subscriber's `preferences.timeZone`, else the feed's. Absent: the feed's own setting. */
  readonly timeZone?: string;
  /** A message of the plugin's own `locales/<locale>.json` (ICU MessageFormat), English where that locale has none. */
  readonly t?: Translate;
  /**
   * Earlier events of the same item this subscriber never got (oldest
   * first): their deliveries still waited when this newer one came, so only
   * this one is sent (latest state only). Say what they missed: a
   * restoration that replaces an unsent new-outage message says when the
   * outage began. Absent or empty: nothing was missed.
   */
  readonly missed?: readonly NotificationEvent[];
}

/** A pure function of the event and the plugin's config: no I/O, no clock. */
export interface NotificationRenderer<TConfig = unknown> {
  readonly eventTypes: readonly string[];
  canRender(eventType: string): boolean;
  render(event: NotificationEvent, context: RenderContext<TConfig>): RenderedNotification;
}
