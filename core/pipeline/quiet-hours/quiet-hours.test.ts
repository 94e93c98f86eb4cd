import { describe, expect, it } from 'vitest';
import type { RenderedNotification } from '../../plugin-api/feed-types.ts';
import { catchUpMessage, holdUntil, quietUntil, type HeldDelivery, type QuietHours } from './quiet-hours.ts';
import { coreMessages, createTranslator, intlLocale } from '../../i18n/index.ts';

const words = (timeZone: string, locale = 'en') => ({ t: createTranslator(coreMessages, locale), intlLocale: intlLocale(locale), timeZone });

const colomboNight: QuietHours = { start: '22:00', end: '06:30', timeZone: 'Asia/Colombo' };
const colomboDay: QuietHours = { start: '09:00', end: '17:00', timeZone: 'Asia/Colombo' };
const londonNight: QuietHours = { start: '00:30', end: '02:30', timeZone: 'Europe/London' };

describe('quietUntil: is now inside the window, and when does it end', () => {
  it.each<[string, QuietHours, string, string | null]>([
    // Colombo is UTC+5:30 all year.
    ['before a wrapping window', colomboNight, '2026-11-26T16:29:00Z', null], // 21:59 local
    ['at its start (included)', colomboNight, '2026-11-26T16:30:00Z', '2026-11-27T01:00:00Z'], // 22:00 → 06:30 next day
    ['just before midnight', colomboNight, '2026-11-26T18:29:00Z', '2026-11-27T01:00:00Z'],
    ['after midnight, same night', colomboNight, '2026-11-26T20:00:00Z', '2026-11-27T01:00:00Z'], // 01:30 local
    ['a minute before its end', colomboNight, '2026-11-27T00:59:00Z', '2026-11-27T01:00:00Z'],
    ['at its end (excluded)', colomboNight, '2026-11-27T01:00:00Z', null],
    ['midday, outside', colomboNight, '2026-11-27T06:30:00Z', null],
    ['inside a window within one day', colomboDay, '2026-11-27T05:00:00Z', '2026-11-27T11:30:00Z'], // 10:30 → 17:00
    ['before a window within one day', colomboDay, '2026-11-27T03:00:00Z', null],
    ['after a window within one day', colomboDay, '2026-11-27T11:30:00Z', null],
    [
      'the end on the local date, not the UTC one',
      { start: '23:00', end: '07:00', timeZone: 'Pacific/Auckland' },
      '2026-11-26T11:00:00Z',
      '2026-11-26T18:00:00Z',
    ], // 00:00 NZDT on the 27th → 07:00 the 27th
  ])('%s', (_case, quiet, now, expected) => {
    expect(quietUntil(quiet, new Date(now))?.toISOString() ?? null).toBe(expected === null ? null : new Date(expected).toISOString());
  });

  it.each<[string, string, string | null]>([
    // Europe/London springs forward on 2026-03-29 at 01:00 GMT (01:00 → 02:00 BST): the night is an hour shorter.
    ['spring forward: 00:45 GMT, the end 02:30 BST is 01:30 UTC', '2026-03-29T00:45:00Z', '2026-03-29T01:30:00Z'],
    ['spring forward: 02:10 BST (01:10 UTC), still inside', '2026-03-29T01:10:00Z', '2026-03-29T01:30:00Z'],
    ['spring forward: 02:30 BST, over', '2026-03-29T01:30:00Z', null],
    // Falls back on 2026-10-25 at 01:00 UTC (02:00 BST → 01:00 GMT): the night is an hour longer.
    ['fall back: 00:40 BST (23:40 UTC), the end 02:30 GMT is 02:30 UTC', '2026-10-24T23:40:00Z', '2026-10-25T02:30:00Z'],
    ['fall back: 01:30 GMT the second time, still inside', '2026-10-25T01:30:00Z', '2026-10-25T02:30:00Z'],
    ['fall back: 02:30 GMT, over', '2026-10-25T02:30:00Z', null],
  ])('a DST night: %s', (_case, now, expected) => {
    expect(quietUntil(londonNight, new Date(now))?.toISOString() ?? null).toBe(expected && new Date(expected).toISOString());
  });

  it('an end the spring-forward gap skips ends the window at the jump', () => {
    // 01:30 local does not exist in London on 2026-03-29 (01:00 GMT jumps to 02:00 BST): the window 00:00–01:30 ends at 01:00 UTC.
    const quiet: QuietHours = { start: '00:00', end: '01:30', timeZone: 'Europe/London' };
    expect(quietUntil(quiet, new Date('2026-03-29T00:50:00Z'))?.toISOString()).toBe('2026-03-29T01:00:00.000Z');
    // Past the jump the clock shows 02:00 BST, after the end: outside.
    expect(quietUntil(quiet, new Date('2026-03-29T01:00:00Z'))).toBeNull();
  });

  it.each<[string, QuietHours, string, string | null]>([
    // East of UTC: Berlin falls back on 2026-10-25 at 01:00 UTC (03:00 CEST → 02:00 CET). The first 02:30 is 00:30 UTC.
    ['Berlin, 02:10 CEST: the first 02:30 (CEST)', { start: '22:00', end: '02:30', timeZone: 'Europe/Berlin' }, '2026-10-25T00:10:00Z', '2026-10-25T00:30:00Z'],
    ['Berlin, 02:40 CEST: past the end', { start: '22:00', end: '02:30', timeZone: 'Europe/Berlin' }, '2026-10-25T00:40:00Z', null],
    [
      'Berlin, 02:10 CET: the clock shows the window again, until 02:30 CET',
      { start: '22:00', end: '02:30', timeZone: 'Europe/Berlin' },
      '2026-10-25T01:10:00Z',
      '2026-10-25T01:30:00Z',
    ],
    // West of UTC: New York falls back on 2026-11-01 at 06:00 UTC (02:00 EDT → 01:00 EST). The first 01:30 is 05:30 UTC.
    [
      'New York, 01:10 EDT: the first 01:30 (EDT)',
      { start: '23:00', end: '01:30', timeZone: 'America/New_York' },
      '2026-11-01T05:10:00Z',
      '2026-11-01T05:30:00Z',
    ],
    ['New York, 01:10 EST: until 01:30 EST', { start: '23:00', end: '01:30', timeZone: 'America/New_York' }, '2026-11-01T06:10:00Z', '2026-11-01T06:30:00Z'],
  ])('a fall-back night either side of UTC: %s', (_case, quiet, now, expected) => {
    expect(quietUntil(quiet, new Date(now))?.toISOString() ?? null).toBe(expected && new Date(expected).toISOString());
  });

  it('no quiet hours, or an empty window, holds nothing', () => {
    expect(quietUntil(undefined, new Date('2026-11-26T20:00:00Z'))).toBeNull();
    expect(quietUntil({ start: '22:00', end: '22:00', timeZone: 'UTC' }, new Date('2026-11-26T22:00:00Z'))).toBeNull();
  });
});

describe('holdUntil: urgent deliveries go at once', () => {
  const night = new Date('2026-11-26T20:00:00Z'); // 01:30 in Colombo
  it.each<[string, boolean, boolean]>([
    ['urgent', true, false],
    ['not urgent', false, true],
  ])('%s inside the window: held %s', (_why, urgent, held) => {
    expect(holdUntil(urgent, colomboNight, night) !== null).toBe(held);
  });
  it('nothing is held outside the window', () => {
    expect(holdUntil(false, colomboNight, new Date('2026-11-27T06:00:00Z'))).toBeNull();
  });
});

const rendered = (sequenceId: string, title: string, priority: RenderedNotification['priority'] = 'Default'): RenderedNotification => ({
  title,
  body: 'details',
  sequenceId,
  tags: [],
  priority,
});
const held = (ledgerId: number, at: string, r: RenderedNotification): HeldDelivery => ({ ledgerId, heldAt: new Date(at), rendered: r });

describe('catchUpMessage: one message, the latest state of each item', () => {
  it('three changes to one outage are one line with the first and last times; another item its own line', () => {
    const message = catchUpMessage(
      [
        held(11, '2026-11-26T19:40:00Z', rendered('outage-7', 'Restoration expected 03:00: Kandy')),
        held(12, '2026-11-26T20:10:00Z', rendered('outage-9', 'Restoration expected 05:00: Peradeniya')),
        held(13, '2026-11-26T21:00:00Z', rendered('outage-7', 'Restoration expected 04:00: Kandy')),
        held(14, '2026-11-26T22:10:00Z', rendered('outage-7', 'Power restored: Kandy', 'High')),
      ],
      words('Asia/Colombo'),
      'catch-up-1',
    );
    expect(message.title).toBe('While you were away: 2 updates');
    expect(message.body.split('\n')).toEqual([
      'Power restored: Kandy (3 changes, at 01:10 GMT+5:30 and 03:40 GMT+5:30)',
      'Restoration expected 05:00: Peradeniya (at 01:40 GMT+5:30)',
    ]);
    expect(message.priority).toBe('High');
    expect(message.sequenceId).toBe('catch-up-1');
  });

  it('says one update in the singular, and writes times in the zone given', () => {
    const message = catchUpMessage([held(1, '2026-07-01T02:00:00Z', rendered('a', 'Water back'))], words('Europe/London'), 'c');
    expect(message.title).toBe('While you were away: 1 update');
    expect(message.body).toBe('Water back (at 03:00 BST)');
  });

  it('a title from a feed cannot add a line to the message', () => {
    const message = catchUpMessage([held(1, '2026-11-26T20:00:00Z', rendered('a', 'Line one\nInjected: yes\r\u2028more'))], words('UTC'), 'c');
    expect(message.body.split('\n')).toHaveLength(1);
    expect(message.body).toBe('Line one Injected: yes more (at 20:00 UTC)');
  });

  it('refuses an empty hold', () => {
    expect(() => catchUpMessage([], words('UTC'), 'c')).toThrow();
  });

  it.each<[string, RegExp]>([
    ['si', /[\u0D80-\u0DFF]/],
    ['ta', /[\u0B80-\u0BFF]/],
  ])("is written in the subscriber's language (%s): its script in the title and the lines", (locale, script) => {
    const message = catchUpMessage(
      [held(1, '2026-11-26T19:40:00Z', rendered('a', 'x')), held(2, '2026-11-26T22:10:00Z', rendered('a', 'y'))],
      words('Asia/Colombo', locale),
      'c',
    );
    expect(message.title).toMatch(script);
    expect(message.body).toMatch(script);
    expect(message.body.startsWith('y (')).toBe(true);
  });
});
