import { describe, expect, it } from 'vitest';
import { announcementEvent } from './announcements.ts';
import { toNotificationEvents } from './event-mapper.ts';
import type { PowerOutageItem } from './outage-types.ts';
import { powerOutageRenderers } from './renderers.ts';

const config = { PowerOutages: { Enabled: true, PollingIntervalSeconds: 60, FeedTimeoutSeconds: 15, TimeZone: 'Asia/Colombo' } };
const item: PowerOutageItem = { id: 'PO-1001', feeder: 'F12', areas: ['Kandy', 'Peradeniya'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null, cause: 'Fallen line', customersAffected: 1200 };
const render = (kind: 'NewOutage' | 'Restoration' | 'RestoredAnnouncement', source = item) => {
  const [event] = toNotificationEvents([{ kind, item: source }]);
  const renderer = powerOutageRenderers.find((r) => r.canRender(event.eventType))!;
  return { event, rendered: renderer.render(event, { config }) };
};

describe('power-outage events and renderers', () => {
  it('maps a change to an event keyed by the provider id with filterable fields', () => {
    const { event } = render('NewOutage');
    expect(event).toMatchObject({ feedId: 'utility.power-outages', eventType: 'NewOutage', sourceKey: 'PO-1001', itemKey: 'PO-1001' });
    expect(event.fields).toEqual({ feeder: 'F12', areas: 'Kandy, Peradeniya', cause: 'Fallen line' });
    expect(toNotificationEvents([{ kind: 'NewOutage', item: { ...item, areas: ['Kandy'] } }])[0].fields.area).toBe('Kandy');
  });

  it('renders a NewOutage with high priority, times in the configured zone', () => {
    const { rendered } = render('NewOutage');
    expect(rendered).toEqual({
      title: 'Power outage: Kandy, Peradeniya',
      body: 'Feeder: F12\nAreas: Kandy, Peradeniya\nSince: 22 Nov 2026, 08:15 GMT+5:30\nCause: Fallen line',
      sequenceId: 'po-PO-1001',
      tags: ['warning', 'electric_plug'],
      priority: 'High',
    });
  });

  it('renders a Restoration with the same sequence id, so it replaces the outage message', () => {
    const restored = render('Restoration', { ...item, timeRestored: '2026-11-22T10:05:00+05:30' });
    expect(restored.rendered.title).toBe('Power restored: Kandy, Peradeniya');
    expect(restored.rendered.body).toContain('Restored: 22 Nov 2026, 10:05 GMT+5:30');
    expect(restored.rendered.priority).toBe('Default');
    expect(restored.rendered.sequenceId).toBe(render('NewOutage').rendered.sequenceId);
    expect(render('RestoredAnnouncement', { ...item, timeRestored: '2026-11-22T10:05:00+05:30' }).rendered.title).toBe('Power restored: Kandy, Peradeniya');
  });

  it('renders an announcement with its scope', () => {
    const event = announcementEvent({ title: 'Storm warning', message: 'Expect outages tonight.', areas: ['Kandy'], feeders: ['F1', 'F2'] }, 'announcement-1');
    expect(event.fields).toMatchObject({ feeders: 'F1,F2', areas: 'Kandy' });
    const rendered = powerOutageRenderers.find((r) => r.canRender('ManualAnnouncement'))!.render(event, { config });
    expect(rendered).toMatchObject({ title: 'Storm warning', body: 'Expect outages tonight.\nAreas: Kandy\nFeeders: F1, F2', priority: 'High' });
  });

  it('refuses an event type no renderer handles', () => {
    const renderer = powerOutageRenderers.find((r) => r.canRender('NewOutage'))!;
    expect(() => renderer.render({ ...render('NewOutage').event, eventType: 'Restoration' }, { config })).toThrow(/cannot render event type "Restoration"/);
  });
});
