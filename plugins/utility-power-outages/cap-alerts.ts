import type { CapContent, CapProfile, FeedAlertView, StoredNotificationEvent } from '#plugin-api';
import type { AnnouncementPayload, PowerOutageItem } from './outage-types.ts';

const outage = { event: 'Power outage', certainty: 'Observed' } as const;

/**
 * CAP 1.2 per event type (the table in docs/api.md). A power outage is observed,
 * ongoing and acted on now; a new estimate of its restoration and its
 * Restoration update the earlier alerts of the same outage (core finds them
 * by itemKey). An outage first seen
 * already restored is reported once, as past. An admin announcement says
 * nothing the service can grade: Unknown.
 */
export const POWER_OUTAGE_CAP_PROFILES: Readonly<Record<string, CapProfile>> = {
  NewOutage: { msgType: 'Alert', urgency: 'Immediate', severity: 'Moderate', ...outage },
  EstimateUpdated: { msgType: 'Update', urgency: 'Immediate', severity: 'Moderate', ...outage },
  Restoration: { msgType: 'Update', urgency: 'Past', severity: 'Minor', ...outage },
  RestoredAnnouncement: { msgType: 'Alert', urgency: 'Past', severity: 'Minor', ...outage },
  ManualAnnouncement: { msgType: 'Alert', event: 'Utility announcement', urgency: 'Unknown', severity: 'Unknown', certainty: 'Unknown' },
};

const validDate = (iso: string | null | undefined) => {
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
};

/** Pure: the rendered message as headline and description, the outage's areas and when it began. */
export function powerOutageCapContent(event: StoredNotificationEvent): CapContent {
  const text = { headline: event.rendered.title, description: event.rendered.body };
  if (event.eventType === 'ManualAnnouncement') return { ...text, areas: (event.sourcePayload as AnnouncementPayload).areas };
  const item = event.sourcePayload as PowerOutageItem;
  const onset = validDate(item.timeOff);
  return { ...text, areas: item.areas, ...(onset ? { onset } : {}) };
}

export const powerOutageAlerts: FeedAlertView = {
  profiles: POWER_OUTAGE_CAP_PROFILES,
  content: (event) => powerOutageCapContent(event),
};
