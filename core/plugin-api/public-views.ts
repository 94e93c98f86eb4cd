import type { Knex } from 'knex';
import type { MapFeature } from './shape-types.ts';
import type { NotificationEvent, RenderContext, RenderedNotification } from './feed-types.ts';

export type { MapFeature };

/**
 * Read-only public views of what a feed stores: a calendar of its planned
 * items and CAP 1.2 alerts of its events. The plugin says what an entry or
 * an alert is (structured data); core owns the formats (iCalendar, Atom,
 * CAP XML), the routes, the filters and the caching.
 */

// CAP 1.2 vocabularies (data dictionary of the OASIS standard, section 3.2).
export const CAP_MSG_TYPES = ['Alert', 'Update', 'Cancel'] as const;
export const CAP_URGENCIES = ['Immediate', 'Expected', 'Future', 'Past', 'Unknown'] as const;
export const CAP_SEVERITIES = ['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown'] as const;
export const CAP_CERTAINTIES = ['Observed', 'Likely', 'Possible', 'Unlikely', 'Unknown'] as const;
export type CapMsgType = (typeof CAP_MSG_TYPES)[number];
export type CapUrgency = (typeof CAP_URGENCIES)[number];
export type CapSeverity = (typeof CAP_SEVERITIES)[number];
export type CapCertainty = (typeof CAP_CERTAINTIES)[number];

/** How the events of one type are announced in CAP: one row of the feed's table. */
export interface CapProfile {
  /**
   * Alert: a new alert. Update or Cancel: it updates (cancels) the earlier
   * alerts of the same source item (same itemKey), which core lists in
   * `references`; when none is stored it is sent as an Alert.
   */
  readonly msgType: CapMsgType;
  /** `info/event`: what kind of event, for example "Power outage". */
  readonly event: string;
  readonly urgency: CapUrgency;
  readonly severity: CapSeverity;
  readonly certainty: CapCertainty;
}

/** What one stored event says in its alert. Core adds identifier, sender, sent, status, scope, category. */
export interface CapContent {
  readonly headline: string;
  readonly description: string;
  readonly instruction?: string;
  /** Named in `area/areaDesc`; none: "All areas". */
  readonly areas: readonly string[];
  readonly onset?: Date;
  readonly expires?: Date;
}

/** A stored event as the public views read it. */
export interface StoredNotificationEvent extends NotificationEvent {
  readonly id: number;
  readonly rendered: RenderedNotification;
  readonly createdAt: Date;
}

export interface FeedAlertView<TConfig = unknown> {
  /** CAP profile per event type; types not listed get no CAP document and no Atom entry. */
  readonly profiles: Readonly<Record<string, CapProfile>>;
  /** Pure: the alert text of an event whose type has a profile. */
  content(event: StoredNotificationEvent, context: RenderContext<TConfig>): CapContent;
}

/** One planned item of a calendar (a VEVENT). */
export interface CalendarEntry {
  /** Stable id of the item; the UID is `<id>@<host of PublicBaseUrl>`. */
  readonly id: string;
  readonly start: Date;
  readonly end: Date;
  readonly summary: string;
  readonly location: string;
  readonly description: string;
  /** Raised by the feed on every change of the item (RFC 5545 SEQUENCE). */
  readonly sequence: number;
  readonly cancelled: boolean;
  /** When the item last changed (DTSTAMP, LAST-MODIFIED). */
  readonly lastModified: Date;
  /** Filterable text keyed like event Fields (feeder, feeders, area, areas): filters match it as they match events. */
  readonly fields: Readonly<Record<string, string>>;
}

export interface FeedCalendar {
  /** IANA zone the times are shown in (DTSTART;TZID=… with its VTIMEZONE); "UTC" writes UTC times. */
  readonly timeZone: string;
  readonly entries: readonly CalendarEntry[];
  /** When what the calendar lists last changed (Last-Modified); null when it never did. */
  readonly lastModified: Date | null;
}

export interface CalendarQuery<TConfig = unknown> extends RenderContext<TConfig> {
  readonly db: Knex;
  readonly now: Date;
}

export interface FeedCalendarView<TConfig = unknown> {
  /** The entries to publish now: the plugin decides which items are current (and keeps cancelled ones a while). */
  load(query: CalendarQuery<TConfig>): Promise<FeedCalendar>;
}

/** The current items with a shape, for the public map (`/outages`, `…/outages.geojson`). */
export interface FeedMapView<TConfig = unknown> {
  /** The plugin decides what is current (ongoing outages, planned ones still to come). */
  load(query: CalendarQuery<TConfig>): Promise<{ readonly features: readonly MapFeature[]; readonly lastModified: Date | null }>;
}

/** The manifest's `publicViews`: what a feed contributes to the public calendar, alert feeds and map. */
export interface FeedPublicViews<TConfig = unknown> {
  readonly calendar?: FeedCalendarView<TConfig>;
  readonly alerts?: FeedAlertView<TConfig>;
  readonly map?: FeedMapView<TConfig>;
}
