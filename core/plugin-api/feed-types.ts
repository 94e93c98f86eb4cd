import type { Translate } from './messages.ts';
/** The catalog and event vocabulary shared by core and every feed plugin. */
export const FILTERABLE_FIELDS = ['Feeder', 'Area', 'Keywords'] as const;
export type FilterableField = (typeof FILTERABLE_FIELDS)[number];

export interface NotificationFeedDefinition {
  /** Dotted id, for example `utility.power-outages`. */
  readonly id: string;
  readonly displayName: string;
  readonly eventTypes: readonly string[];
  readonly filterableFields: readonly FilterableField[];
}

export interface NotificationEvent<TPayload = unknown> {
  readonly feedId: string;
  readonly eventType: string;
  /** Stable key of what is announced: the provider id, or `daily-2026-11-22`-like keys for digests. */
  readonly sourceKey: string;
  /** The source item the event is about (defaults to sourceKey): groups coalescing of Updated events. */
  readonly itemKey?: string;
  /** Filterable text, keyed by catalog field names: feeder, feeders, area, areas. */
  readonly fields: Readonly<Record<string, string>>;
  readonly sourcePayload: TPayload;
}

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
}

/** A pure function of the event and the plugin's config: no I/O, no clock. */
export interface NotificationRenderer<TConfig = unknown> {
  readonly eventTypes: readonly string[];
  canRender(eventType: string): boolean;
  render(event: NotificationEvent, context: RenderContext<TConfig>): RenderedNotification;
}
