import type { NotificationEvent } from '#plugin-api';
import { describe, expect, it } from 'vitest';
import { estimateWorthTelling } from './estimate-policy.ts';

const AT = '2026-11-22T14:00:00+05:30';
const plus = (minutes: number) => new Date(Date.parse(AT) + minutes * 60_000).toISOString();
const event = (eventType: string, estimatedRestoration: string | null): NotificationEvent => ({
  feedId: 'utility.power-outages',
  eventType,
  sourceKey: 'o1',
  itemKey: 'o1',
  fields: {},
  sourcePayload: { id: 'o1', feeder: 'F1', areas: ['Kandy'], timeOff: AT, timeRestored: null, estimatedRestoration },
});

describe('estimateWorthTelling (PowerOutages__EstimateChangeMinutes)', () => {
  it.each([
    // [last told, its estimate (minutes after AT, null: none), the update's estimate, threshold, told?]
    ['NewOutage', 0, 10, 30, false],
    ['NewOutage', 0, 29, 30, false],
    ['NewOutage', 0, 30, 30, true],
    ['NewOutage', 0, -45, 30, true],
    ['EstimateUpdated', 60, 75, 30, false],
    ['EstimateUpdated', 60, 95, 30, true],
    ['NewOutage', null, 10, 30, true], // none to one
    ['NewOutage', null, null, 30, false], // none, still none
    ['NewOutage', 0, null, 30, true], // withdrawn
    ['NewOutage', 0, 1, 0, true], // 0: every change
    ['NewOutage', 0, 10, 5, true],
    ['ManualAnnouncement', null, 10, 30, true], // the last told carried no estimate
  ] as const)('last told %s at %s, now %s, threshold %i: told %s', (lastType, before, now, threshold, told) => {
    const verdict = estimateWorthTelling(
      event('EstimateUpdated', now === null ? null : plus(now)),
      event(lastType, before === null ? null : plus(before)),
      threshold,
    );
    expect(verdict.tell).toBe(told);
  });

  it('tells an update to someone told nothing of the outage yet', () => {
    expect(estimateWorthTelling(event('EstimateUpdated', plus(5)), undefined, 30)).toEqual({ tell: true });
  });

  it('tells every other event type, whatever came before', () => {
    for (const type of ['NewOutage', 'Restoration', 'RestoredAnnouncement', 'ManualAnnouncement']) {
      expect(estimateWorthTelling(event(type, plus(1)), event('NewOutage', plus(0)), 30)).toEqual({ tell: true });
    }
  });

  it('says why an update is not told, in minutes', () => {
    expect(estimateWorthTelling(event('EstimateUpdated', plus(10)), event('NewOutage', plus(0)), 30)).toEqual({
      tell: false,
      reason: 'the estimate moved 10 min from the one last told, less than 30',
    });
  });
});
