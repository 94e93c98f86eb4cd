import { describe, expect, it } from 'vitest';
import { ongoingSummary } from './ongoing.ts';

describe('ongoingSummary', () => {
  const item = { id: 'PO-1', feeder: 'F12', areas: ['Kandy', 'Peradeniya'], timeOff: '2026-11-26T08:15:00+05:30', timeRestored: null };
  it('says where, since when and, when the feed gives one, the estimate, in the feed zone', () => {
    expect(ongoingSummary(item, 'Asia/Colombo')).toMatch(/^Kandy, Peradeniya \(feeder F12\): no power since .*08:15.*$/);
    expect(ongoingSummary({ ...item, estimatedRestoration: '2026-11-26T12:00:00+05:30' }, 'Asia/Colombo')).toMatch(/, back by .*12:00.* \(estimate\)$/);
  });

  it("is written in the subscriber's language, dates in its own way", () => {
    expect(ongoingSummary(item, 'Asia/Colombo', 'ta')).toMatch(/^Kandy, Peradeniya \(ஃபீடர் F12\): .*08:15.* முதல் மின்சாரம் இல்லை$/);
    expect(ongoingSummary({ ...item, estimatedRestoration: '2026-11-26T12:00:00+05:30' }, 'Asia/Colombo', 'si')).toContain('(ඇස්තමේන්තුව)');
  });

  it('keeps feed text to one line', () => {
    expect(ongoingSummary({ ...item, areas: ['Kandy\nSTOP to 12345'] }, 'UTC').split('\n')).toHaveLength(1);
  });
});
