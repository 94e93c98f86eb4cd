import jsQRExports from 'jsqr';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startSmtpDouble, type SmtpDouble } from '../doubles/smtp-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { findChromium, launchChromium } from '../helpers/browser.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

// jsqr's UMD bundle exports the function itself; its types declare it as `export default`.
const jsQR = jsQRExports as unknown as typeof jsQRExports.default;
const chromiumPath = findChromium();
const PUBLIC_BASE_URL = 'https://alerts.example.org';
const MONITOR = 'utility-power-outages.monitor';
const OUTBOX = 'delivery-email.outbox';
/** Waits for what a busy machine may take a while to show; none of these is a timing assertion. */
const SLOW = { timeout: 20_000, interval: 100 };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

const outage = (id: string, areas: string[], timeRestored: string | null = null) => ({
  id,
  feeder: 'F12',
  areas,
  timeOff: '2026-11-22T08:15:00+05:30',
  timeRestored,
  cause: 'Fallen line',
  customersAffected: 300,
});

describe.skipIf(!chromiumPath)('the subscribe and manage pages in Chromium, against the real service', { timeout: 90_000 }, () => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let smtp: SmtpDouble;
  let started: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let context: BrowserContext;
  /** Console errors (a CSP violation is one), page errors, and requests to anywhere but the service. */
  let problems: string[];

  const knex = () => servicesOf(started.app).database.knex;
  const pollFeed = async () => {
    await servicesOf(started.app).workers.runNow(MONITOR, { force: true });
    await servicesOf(started.app).dispatcher.settle();
  };

  async function openPage(path: string, options: BrowserContextOptions = {}): Promise<Page> {
    context = await browser.newContext(options);
    const page = await context.newPage();
    page.on('console', (message) => {
      // Chromium logs every 4xx answer to fetch as an error; those are the API's answers the page explains.
      if (message.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text()))
        problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => void problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(`${baseUrl}/`) && !url.startsWith('blob:')) problems.push(`request to ${url}`);
    });
    await page.goto(`${baseUrl}${path}`);
    return page;
  }

  /** Fills the form the way a person does, by the labels. */
  async function subscribe(page: Page, choices: { areas?: string; feeders?: string; eventTypes?: string[]; email?: string; name?: string }) {
    await page.getByLabel('Feed', { exact: true }).selectOption({ label: 'Power outages' });
    if (choices.areas) await page.getByLabel('Areas').fill(choices.areas);
    if (choices.feeders) await page.getByLabel('Feeders').fill(choices.feeders);
    const group = page.getByRole('group', { name: 'Notify me about' });
    for (const type of choices.eventTypes ?? []) await group.getByRole('checkbox', { name: type, exact: true }).check();
    if (choices.email !== undefined) {
      await page.getByRole('radio', { name: 'Email' }).check();
      await page.getByLabel('Email address').fill(choices.email);
    } else {
      await page.getByRole('radio', { name: 'Push notification' }).check();
    }
    if (choices.name) await page.getByLabel('Name').fill(choices.name);
    await page.getByRole('button', { name: 'Subscribe' }).click();
  }

  /** What the QR code on screen says, read from a screenshot of it as a phone camera would. */
  async function readQrCode(image: Locator): Promise<string | undefined> {
    await expect.poll(() => image.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).naturalWidth > 0), SLOW).toBe(true);
    const png = PNG.sync.read(await image.screenshot());
    return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
  }

  const subscriptionCount = async () => Number((await knex()('notification_subscriptions').count({ n: '*' }))[0].n);

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    [feed, push, smtp] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble(), startSmtpDouble()]);
    started = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push', 'delivery-email']),
      env: e2eEnv(feed, push, {
        ...smtp.env,
        PublicBaseUrl: PUBLIC_BASE_URL,
        PowerOutages__Enabled: 'true',
        PowerOutages__PollingIntervalSeconds: '3600',
        EmailOutbox__IntervalSeconds: '3600',
      }),
    });
    baseUrl = await started.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium(chromiumPath!);
  });
  beforeEach(() => void (problems = []));
  afterEach(async () => {
    await context?.close();
    expect(problems).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await started?.close();
    await Promise.all([feed?.close(), push?.close(), smtp?.close()]);
    await database?.drop();
  });

  it("Push: the page offers the feed's filters, shows the link, its QR code and the app steps, and a later outage reaches the topic", async () => {
    const page = await openPage('/subscribe');
    await expect.poll(() => page.getByLabel('Feed', { exact: true }).locator('option').allTextContents(), SLOW).toEqual(['Power outages', 'Scheduled outages']);
    expect(await page.getByLabel('Email address').isHidden()).toBe(true);
    // A feed the service polls says nothing more; one switched off in its settings (scheduled outages, here) says so.
    expect(await page.locator('#feed-unwatched').isHidden()).toBe(true);
    await page.getByLabel('Feed', { exact: true }).selectOption('utility.scheduled-outages');
    expect(await page.locator('#feed-unwatched').textContent()).toMatch(/^This service does not watch this feed yet/);
    expect(await page.locator('#feed-unwatched').isVisible()).toBe(true);
    await page.getByLabel('Feed', { exact: true }).selectOption('utility.power-outages');
    const types = await page
      .getByRole('group', { name: 'Notify me about' })
      .getByRole('checkbox')
      .evaluateAll((boxes) => boxes.map((box) => (box as unknown as { value: string }).value));
    // One choice per label the feed gives: a restoration and an outage first seen already over are one.
    expect(types).toEqual(['NewOutage', 'EstimateUpdated', 'Restoration,RestoredAnnouncement', 'ManualAnnouncement']);

    await subscribe(page, { areas: 'Kandy', eventTypes: ['Power outage'] });
    const link = page.getByRole('link', { name: 'Open in the ntfy app' });
    const subscribeUrl = await link.getAttribute('href');
    expect(subscribeUrl).toMatch(new RegExp(`^${push.baseUrl}/alerts-[A-Za-z0-9_-]{22}$`));
    const topic = subscribeUrl!.slice(push.baseUrl.length + 1);
    expect(await readQrCode(page.getByRole('img', { name: 'QR code of the subscribe link' }))).toBe(subscribeUrl);
    const steps = await page.getByRole('list').innerText();
    expect(steps).toContain(topic);
    expect(steps).toContain(push.baseUrl); // not ntfy.sh: the app must be told the server
    expect(await page.getByRole('link', { name: 'Manage this subscription' }).getAttribute('href')).toMatch(/^\/manage\/[A-Za-z0-9_-]+#token=[A-Za-z0-9_-]+$/);

    feed.setPowerOutages([outage('PO-1', ['Kandy', 'Peradeniya']), outage('PO-2', ['Galle'])]);
    await pollFeed();
    expect(push.messages(topic).map((message) => message.title)).toEqual(['Power outage: Kandy, Peradeniya']);
    // Only "New outage" was ticked: the restoration goes to the system topic, not to this one.
    feed.setPowerOutages([outage('PO-1', ['Kandy', 'Peradeniya'], '2026-11-22T10:00:00+05:30'), outage('PO-2', ['Galle'])]);
    await pollFeed();
    expect(push.messages('utility-power-outages').map((message) => message.title)).toContain('Power restored: Kandy, Peradeniya');
    expect(push.messages(topic)).toHaveLength(1);
  });

  it('Email: the page says to check the inbox, the verification email arrives, and its link confirms', async () => {
    const page = await openPage('/subscribe');
    await subscribe(page, { email: 'reader@example.org', name: 'Home in Kandy', areas: 'Kandy' });
    await expect.poll(() => page.getByRole('heading', { level: 2 }).textContent(), SLOW).toBe('Check your inbox');
    expect(await page.locator('#result').innerText()).toContain('reader@example.org');
    expect(await page.getByRole('link', { name: 'Open in the ntfy app' }).count()).toBe(0);

    const mailTo = () => smtp.messages.filter((message) => message.envelopeTo.includes('reader@example.org'));
    await expect
      .poll(async () => {
        await servicesOf(started.app).workers.runNow(OUTBOX);
        return mailTo().length;
      }, SLOW)
      .toBe(1);
    expect(mailTo()[0].subject).toContain('Home in Kandy');
    const verifyLink = /https:\/\/alerts\.example\.org(\/api\/notification-subscriptions\/[^\s>"]+\/verify\?token=[^\s>"&]+)/.exec(mailTo()[0].text ?? '')?.[1];
    expect(verifyLink).toBeDefined();
    await page.goto(`${baseUrl}${verifyLink}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Address confirmed');
  });

  it('shows an API error in the alert next to the form, in plain words, and stores nothing', async () => {
    const page = await openPage('/subscribe');
    const before = await subscriptionCount();
    const alert = page.getByRole('alert');
    // Two ways offered, none chosen for the person: the page asks rather than guess.
    await expect.poll(() => page.getByRole('radio').count(), SLOW).toBe(2);
    await expect.poll(() => page.getByLabel('Feed', { exact: true }).locator('option').count(), SLOW).toBe(2);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => alert.textContent(), SLOW).toBe('Deliver by: please choose how the alerts should reach you.');
    await subscribe(page, { email: 'not-an-address' });
    await expect.poll(() => alert.textContent(), SLOW).toBe('Email address: this is not an email address we can send to. Check it for typos.');
    expect(await page.getByLabel('Email address').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Email address').evaluate((input) => input.ownerDocument.activeElement === input)).toBe(true);

    await page.getByRole('radio', { name: 'Push notification' }).check();
    await page.getByLabel('Feeders').fill(`F12, ${'F'.repeat(101)}`);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => alert.textContent(), SLOW).toBe('Feeders: each entry can have at most 100 characters.');
    expect(await subscriptionCount()).toBe(before);
    expect(await page.getByRole('button', { name: 'Subscribe' }).isVisible()).toBe(true);
  });

  it('manage page: shows the subscription, sends a test notification, says when the next test may go, and deletes it', async () => {
    const page = await openPage('/subscribe');
    await subscribe(page, { feeders: 'F7', name: 'Feeder seven' });
    const topic = (await page.getByRole('link', { name: 'Open in the ntfy app' }).getAttribute('href'))!.split('/').at(-1)!;
    await page.getByRole('link', { name: 'Manage this subscription' }).click();
    await page.waitForURL(/\/manage\//);
    expect(new URL(page.url()).search).toBe('');

    await expect.poll(() => page.getByRole('heading', { level: 2 }).textContent(), SLOW).toBe('Feeder seven');
    const details = await page.locator('#details').innerText();
    expect(details).toMatch(/Feeders\s+F7/);
    expect(details).toMatch(/Status\s+Active/);
    expect(await page.getByRole('link', { name: 'Open in the ntfy app' }).getAttribute('href')).toBe(`${push.baseUrl}/${topic}`);

    await page.getByRole('button', { name: 'Send a test notification' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), SLOW).toBe('Test sent by Push notification: it should reach you within a few minutes.');
    expect(push.messages(topic).map((message) => message.title)).toEqual(['Test notification: Feeder seven']);
    await page.getByRole('button', { name: 'Send a test notification' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), SLOW)
      .toMatch(/^A test was sent a short while ago\. You can send another one in 5 minutes \(at \d{1,2}:\d{2}.*\)\.$/);
    expect(push.messages(topic)).toHaveLength(1);

    await page.getByRole('button', { name: 'Delete subscription' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), SLOW).toBe('Subscription deleted. You will get no more alerts from it.');
    expect(await page.getByRole('alert').textContent()).toBe('');
    const token = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('token')!;
    const publicId = new URL(page.url()).pathname.split('/').at(-1);
    const gone = await started.app.inject({ method: 'GET', url: `/api/notification-subscriptions/${publicId}`, headers: { 'x-subscription-token': token } });
    expect(gone.statusCode).toBe(404);
  });

  it('manage page without its token or with a wrong one says what is wrong with the link', async () => {
    const created = await started.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'Link check', feedId: 'utility.power-outages', delivery: { provider: 'Push' } },
    });
    const { publicId } = created.json();
    const page = await openPage(`/manage/${publicId}`);
    await expect.poll(() => page.getByRole('alert').textContent(), SLOW).toMatch(/^This manage link is incomplete/);
    await page.goto(`${baseUrl}/manage/${publicId}#token=wrong`);
    await page.reload();
    await expect.poll(() => page.getByRole('alert').textContent(), SLOW).toMatch(/^This manage link does not match the subscription/);
    expect(await page.getByRole('button', { name: 'Send a test notification' }).isVisible()).toBe(false);
  });

  it('a service with no push server and no email plugin: Push is shown but not offered, and a push subscription made through the API has no link yet', async () => {
    const bare = await provisionDatabase(await preferredKind());
    const other = await startTestApp({ database: bare, workers: false, pluginsDir: realPluginsDir(['utility-power-outages', 'delivery-push']) });
    try {
      const otherUrl = await other.app.listen({ host: '127.0.0.1', port: 0 });
      context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${otherUrl}/subscribe`);
      await expect.poll(() => page.getByLabel('Feed', { exact: true }).locator('option').allTextContents(), SLOW).toEqual(['Power outages']);
      // Email is not installed: not listed at all. Push is installed but cannot deliver: shown, not offered.
      await expect.poll(() => page.getByRole('radio').count(), SLOW).toBe(1);
      expect(await page.getByRole('radio', { name: 'Push notification (not available here yet)' }).isDisabled()).toBe(true);
      expect(await page.getByRole('alert').textContent()).toBe('This service cannot deliver alerts yet: no way of delivery is set up. Please come back later.');
      expect(await page.getByRole('button', { name: 'Subscribe' }).isDisabled()).toBe(true);

      // The API still takes the create (its deliveries wait for the push server); its manage page says there is no link yet.
      const created = (
        await other.app.inject({
          method: 'POST',
          url: '/api/notification-subscriptions',
          payload: { displayName: 'Early bird', feedId: 'utility.power-outages', delivery: { provider: 'Push' } },
        })
      ).json();
      await page.goto(`${otherUrl}/manage/${created.publicId}#token=${created.manageToken}`);
      await expect.poll(() => page.locator('#link-setup').innerText(), SLOW).toContain('There is no subscribe link yet');
      expect(await page.getByRole('link', { name: 'Open in the ntfy app' }).count()).toBe(0);
      expect(await page.getByRole('img', { name: 'QR code of the subscribe link' }).count()).toBe(0);
    } finally {
      await context.close();
      await other.close();
      await bare.drop();
    }
  });

  it('on a phone-sized screen both pages fit the width and the whole flow works by touch', async () => {
    const page = await openPage('/subscribe', PHONE);
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    await expect.poll(() => page.getByLabel('Feed', { exact: true }).locator('option').count(), SLOW).toBe(2);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByLabel('Areas').fill('Matale');
    await page.getByRole('radio', { name: 'Push notification' }).tap();
    await page.getByRole('button', { name: 'Subscribe' }).tap();
    const image = page.getByRole('img', { name: 'QR code of the subscribe link' });
    const subscribeUrl = await page.getByRole('link', { name: 'Open in the ntfy app' }).getAttribute('href');
    expect(await readQrCode(image)).toBe(subscribeUrl);
    expect(await overflow()).toBeLessThanOrEqual(0);
    const box = (await image.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);

    await page.getByRole('link', { name: 'Manage this subscription' }).tap();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).textContent(), SLOW).toBe('Power outages: Matale');
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Send a test notification' }).tap();
    await expect.poll(() => page.getByRole('status').textContent(), SLOW).toMatch(/^Test sent by Push notification/);
    expect(push.messages(subscribeUrl!.split('/').at(-1)!)).toHaveLength(1);
  });
});
