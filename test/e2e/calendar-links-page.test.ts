import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, launchChromium } from '../helpers/browser.ts';
import { parseWithIcalJs } from '../helpers/ics-parsers.ts';
import { startOutageFeedsApp, type OutageFeedsApp } from '../helpers/outage-feeds-app.ts';

const chromiumPath = findChromium();
/** Waits for what a busy machine may take a while to show; not a timing assertion. */
const SLOW = { timeout: 20_000 };

describe.skipIf(!chromiumPath)("the pages offer a subscription's calendar, in Chromium", { timeout: 90_000 }, () => {
  let service: OutageFeedsApp;
  let baseUrl: string;
  let browser: Browser;
  const problems: string[] = [];
  /** The answers the pages got to their calendar.ics requests. */
  const calendarAnswers: number[] = [];

  const open = async (path: string): Promise<Page> => {
    const page = await (await browser.newContext()).newPage();
    page.on('pageerror', (error) => void problems.push(`page error: ${error.message}`));
    page.on('response', (response) => void (response.url().includes('/calendar.ics') && calendarAnswers.push(response.status())));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) problems.push(`console: ${message.text()}`);
    });
    await page.goto(`${baseUrl}${path}`);
    return page;
  };
  const create = (feedId: string) => service.subscribe(feedId, { locationKeywords: ['gampola'] });

  beforeAll(async () => {
    service = await startOutageFeedsApp(
      { ScheduledOutages__Enabled: 'true', ScheduledOutages__PollingIntervalSeconds: '3600', ScheduledOutages__TimeZone: 'Asia/Colombo' },
      () => new Date('2026-11-22T04:00:00Z'),
    );
    service.feed.setScheduledOutages([
      { id: 'SO-77', date: '2026-11-24', start: '09:00', end: '17:00', feeder: 'F3', areas: ['Gampola'], reason: 'Maintenance', status: 'scheduled' },
      { id: 'SO-80', date: '2026-11-25', start: '09:00', end: '12:00', feeder: 'F9', areas: ['Kandy'], reason: 'Maintenance', status: 'scheduled' },
    ]);
    await service.poll('utility-scheduled-outages.monitor');
    baseUrl = await service.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium(chromiumPath!);
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it("the manage page links the calendar as webcal:// and shows the address, which serves the subscription's outages", async () => {
    const { publicId, manageToken } = await create('utility.scheduled-outages');
    const page = await open(`/manage/${publicId}#token=${encodeURIComponent(manageToken)}`);
    const link = page.getByRole('link', { name: 'Add to my calendar' });
    await expect.poll(() => link.count(), SLOW).toBe(1);
    const address = `${baseUrl}/api/notification-subscriptions/${publicId}/calendar.ics?token=${encodeURIComponent(manageToken)}`;
    expect(await link.getAttribute('href')).toBe(address.replace(/^http:/, 'webcal:'));
    expect(await page.locator('#calendar-links code').textContent()).toBe(address);
    const calendar = await fetch(address);
    expect(calendar.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(parseWithIcalJs(await calendar.text()).events.map((event) => event.summary)).toEqual(['Planned power outage: Gampola']);
    expect(problems).toEqual([]);
  });

  it('offers no calendar for a feed without one, and the subscribe page offers it right after subscribing', async () => {
    const power = await create('utility.power-outages');
    calendarAnswers.length = 0;
    const managePower = await open(`/manage/${power.publicId}#token=${encodeURIComponent(power.manageToken)}`);
    // The catalog says the feed has no calendar: the page asks nothing, and shows nothing.
    await expect.poll(() => managePower.getByRole('heading', { name: 'Home' }).count(), SLOW).toBe(1);
    expect(calendarAnswers).toEqual([]);
    expect(await managePower.locator('#calendar-links').innerHTML()).toBe('');
    expect(await managePower.getByRole('link', { name: 'Add to my calendar' }).count()).toBe(0);

    const page = await open('/subscribe');
    await page.getByLabel('Feed', { exact: true }).selectOption({ label: 'Scheduled outages' });
    await page.getByLabel('Areas').fill('Kandy');
    await page.getByRole('radio', { name: 'Push notification' }).check();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const link = page.getByRole('link', { name: 'Add to my calendar' });
    await expect.poll(() => link.count(), SLOW).toBe(1);
    const address = String(await link.getAttribute('href')).replace(/^webcal:/, 'http:');
    expect(parseWithIcalJs(await (await fetch(address)).text()).events.map((event) => event.summary)).toEqual(['Planned power outage: Kandy']);
    expect(problems).toEqual([]);
  });
});
