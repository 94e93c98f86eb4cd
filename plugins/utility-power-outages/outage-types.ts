import type { AreaGeometry } from '#plugin-api';
/** One outage as the utility's feed API reports it. */
export interface PowerOutageItem {
  id: string;
  feeder: string;
  areas: string[];
  timeOff: string;
  timeRestored: string | null;
  cause?: string | null;
  customersAffected?: number | null;
  /** The utility's estimate of the restoration (ISO 8601 with offset); absent or null: none. */
  estimatedRestoration?: string | null;
  /** Where it is (GeoJSON Polygon or MultiPolygon), when the utility knows. */
  geometry?: AreaGeometry | null;
}

/** What the feed store holds of an outage (table power_outages). */
export interface StoredPowerOutage {
  id: string;
  timeRestored: string | null;
  /** When its NewOutage was handed to the pipeline: null while it waits for PowerOutages__MinOutageMinutes, or was never announced. */
  outageNotifiedAt: string | null;
  /** The estimate the feed gave last (ISO 8601), null for none. */
  estimatedRestoration: string | null;
  /** How many estimate changes were announced (EstimateUpdated `<id>:etr:<n>`), 0 before the first. */
  estimateChanges: number;
}

export const POWER_OUTAGE_EVENT_TYPES = ['NewOutage', 'EstimateUpdated', 'Restoration', 'RestoredAnnouncement', 'ManualAnnouncement'] as const;
export type PowerOutageChangeKind = 'NewOutage' | 'EstimateUpdated' | 'Restoration' | 'RestoredAnnouncement';

export interface PowerOutageChange {
  kind: PowerOutageChangeKind;
  item: PowerOutageItem;
  existing?: StoredPowerOutage;
  /** NewOutage and EstimateUpdated: the estimate the notice shows (ISO 8601), null for none. */
  estimate?: string | null;
  /** EstimateUpdated: n, the count of this outage's announced estimate changes, this one included. */
  estimateChange?: number;
}

/** Payload of a ManualAnnouncement event. */
export interface AnnouncementPayload {
  title: string;
  message: string;
  areas: string[];
  feeders: string[];
}
