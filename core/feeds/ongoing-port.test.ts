import { describe, expect, it } from 'vitest';
import type { OngoingItem } from '../plugin-api/feed-types.ts';
import { ongoingFor } from './ongoing-port.ts';

const item = (feedId: string, id: string, fields: Record<string, string>): OngoingItem => ({
  event: { feedId, eventType: 'NewOutage', sourceKey: id, fields, sourcePayload: {} },
  summary: `${id} summary`,
});
const items = new Map<string, readonly OngoingItem[]>([
  ['power', [item('power', 'PO-1', { feeder: 'F12', areas: 'Kandy, Peradeniya' }), item('power', 'PO-2', { feeder: 'F7', areas: 'Galle' })]],
  ['water', [item('water', 'W-1', { areas: 'Kandy' })]],
]);
const name = (feedId: string) => feedId.toUpperCase();

describe('ongoingFor', () => {
  it.each<[string, Parameters<typeof ongoingFor>[0], string[]]>([
    ['an empty filter gets every item of its feed, and nothing of others', [{ feedId: 'power', filter: {} }], ['PO-1 summary', 'PO-2 summary']],
    ['a filter keeps what it matches', [{ feedId: 'power', filter: { locationKeywords: ['galle'] } }], ['PO-2 summary']],
    [
      'two subscriptions matching one item give it once',
      [
        { feedId: 'power', filter: { feeders: ['F12'] } },
        { feedId: 'power', filter: { locationKeywords: ['Kandy'] } },
      ],
      ['PO-1 summary'],
    ],
    [
      'subscriptions to two feeds get each feed its own',
      [
        { feedId: 'power', filter: { feeders: ['F7'] } },
        { feedId: 'water', filter: null },
      ],
      ['PO-2 summary', 'W-1 summary'],
    ],
    ['nothing matches', [{ feedId: 'power', filter: { locationKeywords: ['Matale'] } }], []],
    ['a feed that offers nothing says nothing', [{ feedId: 'calendar', filter: {} }], []],
  ])('%s', (_name, interests, expected) => {
    expect(ongoingFor(interests, new Map([...items].filter(([feedId]) => interests.some((i) => i.feedId === feedId))), name).map((s) => s.summary)).toEqual(
      expected,
    );
  });

  it('names the feed as people see it', () => {
    expect(ongoingFor([{ feedId: 'water', filter: null }], items, name)).toEqual([{ feedId: 'water', feedName: 'WATER', summary: 'W-1 summary' }]);
  });
});
