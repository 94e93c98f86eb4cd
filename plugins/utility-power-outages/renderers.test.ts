import { describe, expect, it } from 'vitest';
import { announcementEvent } from './announcements.ts';
import { toNotificationEvents } from './event-mapper.ts';
import type { PowerOutageChange, PowerOutageChangeKind, PowerOutageItem } from './outage-types.ts';
import { powerOutageRenderers } from './renderers.ts';
import { createTranslator, loadMessages } from '#plugin-api';

const messages = loadMessages(new URL('./locales/', import.meta.url));

const config = {
  PowerOutages: {
    Enabled: true,
    PollingIntervalSeconds: 60,
    FeedTimeoutSeconds: 15,
    MaxAnswerBytes: 10_485_760,
    TimeZone: 'Asia/Colombo',
    MinOutageMinutes: 0,
    EstimateChangeMinutes: 30,
  },
};
const item: PowerOutageItem = {
  id: 'PO-1001',
  feeder: 'F12',
  areas: ['Kandy', 'Peradeniya'],
  timeOff: '2026-11-22T08:15:00+05:30',
  timeRestored: null,
  cause: 'Fallen line',
  customersAffected: 1200,
};
const render = (kind: PowerOutageChangeKind, source = item, extra: Partial<PowerOutageChange> = {}, locale = 'en', timeZone?: string) => {
  const [event] = toNotificationEvents([{ kind, item: source, ...extra }]);
  const renderer = powerOutageRenderers.find((r) => r.canRender(event.eventType))!;
  return { event, rendered: renderer.render(event, { config, locale, timeZone, t: createTranslator(messages, locale) }) };
};

describe('power-outage events and renderers', () => {
  it('keeps every value from the feed to one line: a line break in one never adds a line or a label', () => {
    const forged = { ...item, feeder: 'F12\r\nBcc: victim@example.org', areas: ['Kandy\nAreas: Everywhere'], cause: 'Fallen\u2028line' };
    const { rendered } = render('NewOutage', forged);
    expect(rendered.body.split('\n')).toEqual([
      'Feeder: F12 Bcc: victim@example.org',
      'Areas: Kandy Areas: Everywhere',
      'Since: 22 Nov 2026, 08:15 GMT+5:30',
      'Cause: Fallen line',
    ]);
    expect(rendered.title).toBe('Power outage: Kandy Areas: Everywhere');
  });

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

  it('shows the estimate the detector chose in a NewOutage, and nothing about one when there is none', () => {
    const estimate = '2026-11-22T12:00:00+05:30';
    const { event, rendered } = render('NewOutage', { ...item, estimatedRestoration: estimate }, { estimate });
    expect(rendered.body).toBe(
      'Feeder: F12\nAreas: Kandy, Peradeniya\nSince: 22 Nov 2026, 08:15 GMT+5:30\nEstimated restoration: 22 Nov 2026, 12:00 GMT+5:30\nCause: Fallen line',
    );
    expect(event.sourcePayload).toMatchObject({ estimatedRestoration: estimate });
    // An estimate already past when announced: the detector gives null, the item keeps it, the notice leaves it out.
    const past = render('NewOutage', { ...item, estimatedRestoration: '2026-11-22T08:00:00+05:30' }, { estimate: null });
    expect(past.rendered.body).not.toContain('Estimated');
    expect(past.event.sourcePayload).toMatchObject({ estimatedRestoration: null });
  });

  it('maps an estimate change to SourceKey <id>:etr:<n>, keyed to its outage for coalescing and the sequence id', () => {
    const estimate = '2026-11-22T13:30:00+05:30';
    const { event, rendered } = render('EstimateUpdated', { ...item, estimatedRestoration: estimate }, { estimate, estimateChange: 3 });
    expect(event).toMatchObject({ eventType: 'EstimateUpdated', sourceKey: 'PO-1001:etr:3', itemKey: 'PO-1001' });
    expect(event.fields).toEqual({ feeder: 'F12', areas: 'Kandy, Peradeniya', cause: 'Fallen line' });
    expect(rendered).toEqual({
      title: 'Power outage, new estimate: Kandy, Peradeniya',
      body: 'Feeder: F12\nAreas: Kandy, Peradeniya\nSince: 22 Nov 2026, 08:15 GMT+5:30\nEstimated restoration: 22 Nov 2026, 13:30 GMT+5:30\nCause: Fallen line',
      sequenceId: render('NewOutage').rendered.sequenceId,
      tags: ['hourglass_flowing_sand', 'electric_plug'],
      priority: 'Default',
    });
  });

  it('says so when the estimate is withdrawn', () => {
    const { rendered } = render('EstimateUpdated', item, { estimate: null, estimateChange: 2 });
    expect(rendered.title).toBe('Power outage, estimate withdrawn: Kandy, Peradeniya');
    expect(rendered.body).toContain('Estimated restoration: none at the moment (the earlier estimate no longer holds)');
  });

  it('renders a Restoration with the same sequence id, so it replaces the outage message', () => {
    const restored = render('Restoration', { ...item, timeRestored: '2026-11-22T10:05:00+05:30' });
    expect(restored.rendered.title).toBe('Power restored: Kandy, Peradeniya');
    expect(restored.rendered.body).toContain('Restored: 22 Nov 2026, 10:05 GMT+5:30');
    expect(restored.rendered.priority).toBe('Default');
    expect(restored.rendered.sequenceId).toBe(render('NewOutage').rendered.sequenceId);
    expect(render('RestoredAnnouncement', { ...item, timeRestored: '2026-11-22T10:05:00+05:30' }).rendered.title).toBe('Power restored: Kandy, Peradeniya');
  });

  it('a Restoration that replaced its unsent NewOutage says there was an outage and when it began; told first, it says nothing more', () => {
    const restoredItem = { ...item, timeRestored: '2026-11-22T10:05:00+05:30' };
    const [restoration] = toNotificationEvents([{ kind: 'Restoration', item: restoredItem }]);
    const [outage] = toNotificationEvents([{ kind: 'NewOutage', item }]);
    const renderer = powerOutageRenderers.find((r) => r.canRender('Restoration'))!;
    const missed = renderer.render(restoration, { config, locale: 'en', t: createTranslator(messages, 'en'), missed: [outage] });
    expect(missed.body.split('\n')[0]).toBe('We had not told you of this outage yet: the power went off at 22 Nov 2026, 08:15 GMT+5:30.');
    expect(missed.title).toBe('Power restored: Kandy, Peradeniya');
    expect(render('Restoration', restoredItem).rendered.body).not.toContain('not told');
  });

  it('an estimate change that replaced its unsent NewOutage is the news of the outage: its title and priority, with the new estimate', () => {
    const [update] = toNotificationEvents([{ kind: 'EstimateUpdated', item, estimate: '2026-11-22T12:00:00+05:30', estimateChange: 1 }]);
    const [outage] = toNotificationEvents([{ kind: 'NewOutage', item }]);
    const renderer = powerOutageRenderers.find((r) => r.canRender('EstimateUpdated'))!;
    const rendered = renderer.render(update, { config, locale: 'si', t: createTranslator(messages, 'si'), missed: [outage] });
    expect(rendered).toMatchObject({ title: 'විදුලිය ඇනහිට ඇත: Kandy, Peradeniya', priority: 'High' });
    expect(render('EstimateUpdated', item, { estimate: '2026-11-22T12:00:00+05:30', estimateChange: 1 }).rendered.priority).toBe('Default');
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

  it.each<[string, RegExp]>([
    ['si', /[\u0D80-\u0DFF]/],
    ['ta', /[\u0B80-\u0BFF]/],
  ])("renders in %s: its script in the title and every label, times written in that language in the feed's zone", (locale, script) => {
    const { rendered } = render('Restoration', { ...item, timeRestored: '2026-11-22T10:45:00+05:30' }, {}, locale);
    expect(rendered.title).toMatch(script);
    expect(rendered.title).toContain('Kandy, Peradeniya');
    for (const line of rendered.body.split('\n')) expect(line).toMatch(script);
    // CLDR's own way of writing a time in that language (Sinhala writes 10.45), with the zone's name or offset.
    expect(rendered.body).toMatch(/10[.:]45/);
    expect(rendered.body).toMatch(/5[.:]30|IST/);
  });

  it("writes times in the subscriber's zone when they chose one, with its abbreviation", () => {
    const { rendered } = render('NewOutage', item, {}, 'en', 'Europe/London');
    expect(rendered.body).toContain('Since: 22 Nov 2026, 02:45 GMT');
  });
});
