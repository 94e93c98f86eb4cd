import { describe, expect, it } from 'vitest';
import type { NotificationEvent } from '../../plugin-api/feed-types.ts';
import { whyNotTell, type TellingRules } from './telling.ts';

const event = (eventType: string): NotificationEvent => ({ feedId: 'f', eventType, sourceKey: 'k', fields: {}, sourcePayload: {} });
const rules = (patch: Partial<TellingRules> = {}): TellingRules => ({ maxPerItem: 5, endTypes: new Set(['Restored']), ...patch });
const quiet = () => ({ tell: false as const, reason: 'no news' });

describe('whyNotTell: the budget per item and the feed policy', () => {
  it.each([
    // [type, told in the window, max, the feed says tell?, expected criterion or null]
    ['Updated', 0, 5, true, null],
    ['Updated', 4, 5, true, null],
    ['Updated', 5, 5, true, 'budget'],
    ['Updated', 9, 5, true, 'budget'],
    ['Restored', 5, 5, true, null], // the item's end always goes
    ['Restored', 50, 5, false, null],
    ['Updated', 0, 5, false, 'feed'],
    ['Updated', 5, 5, false, 'budget'], // the budget is asked first
    ['Updated', 1, 1, true, 'budget'],
  ] as const)('%s after %i told, at most %i, feed tells %s: %s', (type, count, max, feedTells, expected) => {
    const verdict = whyNotTell(event(type), { count, lastTold: undefined }, rules({ maxPerItem: max, worthTelling: feedTells ? undefined : quiet }));
    expect(verdict?.because ?? null).toBe(expected);
  });

  it('a notice that must be confirmed always goes: past the budget, and whatever the feed says', () => {
    const notice = { ...event('ConfirmNotice'), confirmBy: '2026-12-05T03:30:00.000Z' };
    expect(whyNotTell(notice, { count: 9, lastTold: undefined }, rules({ worthTelling: quiet }))).toBeNull();
  });

  it('hands the feed the last event told, and keeps its reason', () => {
    const last = event('Started');
    let seen: NotificationEvent | undefined;
    const verdict = whyNotTell(
      event('Updated'),
      { count: 1, lastTold: last },
      rules({
        worthTelling: (_, told) => {
          seen = told;
          return quiet();
        },
      }),
    );
    expect(seen).toBe(last);
    expect(verdict).toEqual({ because: 'feed', reason: 'no news' });
  });

  it('says the budget in words', () => {
    expect(whyNotTell(event('Updated'), { count: 5, lastTold: undefined }, rules())?.reason).toBe(
      'over budget: 5 messages about this item in 24 hours (at most 5)',
    );
  });
});
