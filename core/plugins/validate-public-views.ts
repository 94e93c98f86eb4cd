import { CAP_CERTAINTIES, CAP_MSG_TYPES, CAP_SEVERITIES, CAP_URGENCIES } from '../plugin-api/public-views.ts';
import { isFn, isRecord } from './value-kinds.ts';

const VOCABULARIES = {
  msgType: CAP_MSG_TYPES,
  urgency: CAP_URGENCIES,
  severity: CAP_SEVERITIES,
  certainty: CAP_CERTAINTIES,
} as const;

/** Checks a feed manifest's `publicViews`: the calendar loader, and one CAP profile per listed event type of the feed. */
export function validatePublicViews(views: unknown, eventTypes: readonly unknown[]): string[] {
  if (views === undefined) return [];
  if (!isRecord(views)) return ['publicViews must be an object'];
  const problems: string[] = [];
  if (views.calendar !== undefined && !(isRecord(views.calendar) && isFn(views.calendar.load))) problems.push('publicViews.calendar needs load(query)');
  if (views.alerts === undefined) return problems;
  const alerts = views.alerts;
  if (!isRecord(alerts) || !isFn(alerts.content) || !isRecord(alerts.profiles))
    return [...problems, 'publicViews.alerts needs profiles and content(event, context)'];
  for (const [type, profile] of Object.entries(alerts.profiles)) {
    if (!eventTypes.includes(type)) problems.push(`publicViews.alerts.profiles.${type}: not an event type of the feed`);
    if (!isRecord(profile)) {
      problems.push(`publicViews.alerts.profiles.${type} must be an object`);
      continue;
    }
    for (const [key, allowed] of Object.entries(VOCABULARIES)) {
      if (!(allowed as readonly unknown[]).includes(profile[key]))
        problems.push(`publicViews.alerts.profiles.${type}.${key} must be one of ${allowed.join(', ')}`);
    }
    if (typeof profile.event !== 'string' || profile.event.trim() === '') problems.push(`publicViews.alerts.profiles.${type}.event is required`);
  }
  return problems;
}
