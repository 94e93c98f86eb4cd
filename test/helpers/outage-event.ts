import type { NotificationEvent } from '#plugin-api';

/**
 * A power outage's first event (NewOutage), as the utility's feed maps one:
 * Kandy, feeder F12, a fallen line, off since 08:15 in Colombo on `day`.
 * What delivery tests hand the pipeline.
 */
export const newOutage = (id: string, day = '2026-11-22'): NotificationEvent => ({
  feedId: 'utility.power-outages',
  eventType: 'NewOutage',
  sourceKey: id,
  itemKey: id,
  fields: { feeder: 'F12', areas: 'Kandy' },
  sourcePayload: { id, feeder: 'F12', areas: ['Kandy'], timeOff: `${day}T08:15:00+05:30`, timeRestored: null, cause: 'Fallen line' },
});
