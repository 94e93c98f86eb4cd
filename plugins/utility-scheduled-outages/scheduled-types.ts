import type { AreaGeometry } from '#plugin-api';
/** One planned outage as the utility's feed API reports it. */
export interface ScheduledOutageItem {
  id: string;
  date: string;
  start: string;
  end: string;
  feeder: string;
  areas: string[];
  reason?: string | null;
  status: 'scheduled' | 'cancelled';
  /** Where the work is (GeoJSON Polygon or MultiPolygon), when the utility knows. */
  geometry?: AreaGeometry | null;
}

export const SCHEDULED_OUTAGE_EVENT_TYPES = ['NewEntry', 'Updated', 'Cancelled', 'WeeklyDigest', 'DailyUpdate', 'DayBeforeReminder', 'ConfirmNotice'] as const;
export type ScheduledChangeKind = 'NewEntry' | 'Updated' | 'Cancelled';

/** The fields whose change makes an Updated event. */
export const TRACKED_FIELDS = ['date', 'start', 'end', 'feeder', 'areas'] as const;
export type TrackedField = (typeof TRACKED_FIELDS)[number];

export interface FieldChange {
  field: TrackedField;
  from: string;
  to: string;
}

export interface ScheduledOutageChange {
  kind: ScheduledChangeKind;
  item: ScheduledOutageItem;
  existing?: ScheduledOutageItem;
  /** For Updated: what changed, old → new. */
  changes: FieldChange[];
}

/** Payload of Updated events. */
export interface UpdatedPayload {
  item: ScheduledOutageItem;
  changes: FieldChange[];
}

/** Payload of DailyUpdate, WeeklyDigest and DayBeforeReminder events. */
export interface DigestPayload {
  /** The period in English words ('week 48 (23–29 November 2026)'): what events stored before `when` say. */
  period: string;
  outages: ScheduledOutageItem[];
  /** The period as facts, for its words in each subscriber's language: which digest, its local dates, its ISO week (a week that starts on Monday). */
  when?: { kind: 'DailyUpdate' | 'WeeklyDigest' | 'DayBeforeReminder'; from: string; to: string; week?: number };
}
