import { describe, expect, it } from 'vitest';
import type { StoredNotificationEvent } from '#plugin-api';
import { scheduledOutageCapContent } from './cap-alerts.ts';
import type { ScheduledOutageItem } from './scheduled-types.ts';

const config = { ScheduledOutages: { TimeZone: 'Asia/Colombo' } } as Parameters<typeof scheduledOutageCapContent>[1];
const item: ScheduledOutageItem = {
  id: 'SO-77',
  date: '2026-11-24',
  start: '22:00',
  end: '02:00',
  feeder: 'F3',
  areas: ['Gampola', 'Nawalapitiya'],
  reason: 'Maintenance',
  status: 'scheduled',
};
const stored = (eventType: string, sourcePayload: unknown): StoredNotificationEvent => ({
  id: 1,
  feedId: 'utility.scheduled-outages',
  eventType,
  sourceKey: 'k',
  itemKey: 'SO-77',
  fields: {},
  sourcePayload,
  createdAt: new Date(0),
  rendered: { title: `${eventType} title`, body: 'body', sequenceId: 's', tags: [], priority: 'Default' },
});

describe('scheduledOutageCapContent', () => {
  it('gives an outage alert the rendered text, its areas, and its start and end in the feed zone (overnight ends next day)', () => {
    expect(scheduledOutageCapContent(stored('NewEntry', item), config)).toEqual({
      headline: 'NewEntry title',
      description: 'body',
      areas: ['Gampola', 'Nawalapitiya'],
      onset: new Date('2026-11-24T16:30:00Z'),
      expires: new Date('2026-11-24T20:30:00Z'),
    });
    const updated = scheduledOutageCapContent(stored('Updated', { item: { ...item, end: '23:00' }, changes: [] }), config);
    expect(updated.expires).toEqual(new Date('2026-11-24T17:30:00Z'));
  });

  it('names every area a digest or reminder lists, once, sorted, and gives it no times', () => {
    const digest = { period: 'Monday 23 November 2026', outages: [item, { ...item, id: 'SO-80', areas: ['Kandy', 'Gampola'] }] };
    for (const type of ['DailyUpdate', 'WeeklyDigest', 'DayBeforeReminder']) {
      expect(scheduledOutageCapContent(stored(type, digest), config)).toEqual({
        headline: `${type} title`,
        description: 'body',
        areas: ['Gampola', 'Kandy', 'Nawalapitiya'],
      });
    }
  });
});
