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
