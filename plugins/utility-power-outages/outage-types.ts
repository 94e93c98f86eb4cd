/** One outage as the utility's feed API reports it (contracts §7). */
export interface PowerOutageItem {
  id: string;
  feeder: string;
  areas: string[];
  timeOff: string;
  timeRestored: string | null;
  cause?: string | null;
  customersAffected?: number | null;
}

/** What the feed store holds of an outage (table power_outages). */
export interface StoredPowerOutage {
  id: string;
  timeRestored: string | null;
  outageNotifiedAt: string | null;
}

export const POWER_OUTAGE_EVENT_TYPES = ['NewOutage', 'Restoration', 'RestoredAnnouncement', 'ManualAnnouncement'] as const;
export type PowerOutageChangeKind = 'NewOutage' | 'Restoration' | 'RestoredAnnouncement';

export interface PowerOutageChange {
  kind: PowerOutageChangeKind;
  item: PowerOutageItem;
  existing?: StoredPowerOutage;
}

/** Payload of a ManualAnnouncement event. */
export interface AnnouncementPayload {
  title: string;
  message: string;
  areas: string[];
  feeders: string[];
}
