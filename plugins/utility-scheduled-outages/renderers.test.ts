import { describe, expect, it } from 'vitest';
import type { NotificationEvent } from '#plugin-api';
import { scheduledOutageRenderers } from './renderers.ts';
import type { ScheduledOutageItem } from './scheduled-types.ts';

const config = { ScheduledOutages: { TimeZone: 'Asia/Colombo' } } as never;
const item: ScheduledOutageItem = {
  id: 'SO-77',
  date: '2026-11-24',
  start: '09:00',
  end: '13:00',
  feeder: 'F3',
  areas: ['Gampola'],
  reason: 'Maintenance',
  status: 'scheduled',
};
const event: NotificationEvent = {
  feedId: 'utility.scheduled-outages',
  eventType: 'NewEntry',
  sourceKey: 'SO-77',
  itemKey: 'SO-77',
  fields: {},
  sourcePayload: item,
};
const render = (locale?: string) => scheduledOutageRenderers.find((r) => r.canRender('NewEntry'))!.render(event, { config, locale });

describe('scheduled-outage renderers in each language', () => {
  it("English: the date, the hours in the feed's zone with its name, the place", () => {
    expect(render()).toMatchObject({
      title: 'Planned outage Tue, 24 Nov 2026: Gampola',
      body: 'Date: Tue, 24 Nov 2026, 09:00–13:00 GMT+5:30\nFeeder: F3\nAreas: Gampola\nReason: Maintenance',
    });
  });

  it.each<[string, RegExp]>([
    ['si', /[\u0D80-\u0DFF]/],
    ['ta', /[\u0B80-\u0BFF]/],
  ])("%s: every line in its script, the feed's values as they came", (locale, script) => {
    const rendered = render(locale);
    expect(rendered.title).toMatch(script);
    expect(rendered.title).toContain('Gampola');
    for (const line of rendered.body.split('\n')) expect(line).toMatch(script);
    expect(rendered.body).toContain('09:00–13:00');
  });
});

describe("a digest's period in the reader's language", () => {
  const digestEvent = (eventType: string, when: object): NotificationEvent => ({
    feedId: 'utility.scheduled-outages',
    eventType,
    sourceKey: 'digest',
    fields: {},
    sourcePayload: { period: 'week 48 (23–29 November 2026)', outages: [item], when },
  });
  const title = (eventType: string, when: object, locale?: string) =>
    scheduledOutageRenderers.find((r) => r.canRender(eventType))!.render(digestEvent(eventType, when), { config, locale }).title;
  const week = { kind: 'WeeklyDigest', from: '2026-11-23', to: '2026-11-29', week: 48 };

  it("English keeps the policy's own words", () => {
    expect(title('WeeklyDigest', week)).toBe('Planned outages, week 48 (23–29 November 2026)');
  });

  it.each<[string, RegExp]>([
    ['si', /[\u0D80-\u0DFF]/],
    ['ta', /[\u0B80-\u0BFF]/],
  ])('%s: the week, the week ahead and tomorrow in its words, the dates the way it writes them', (locale, script) => {
    const weekly = title('WeeklyDigest', week, locale);
    expect(weekly).toContain('48');
    expect(weekly.replace(/\{.*?\}/g, '')).not.toMatch(/week|November/);
    expect(weekly).toMatch(script);
    expect(title('WeeklyDigest', { ...week, week: undefined }, locale)).toMatch(script);
    const tomorrow = title('DayBeforeReminder', { kind: 'DayBeforeReminder', from: '2026-11-24', to: '2026-11-24' }, locale);
    expect(tomorrow).not.toContain('tomorrow');
    expect(tomorrow).toMatch(script);
  });
});
