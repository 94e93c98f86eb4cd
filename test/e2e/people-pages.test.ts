import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startSmtpDouble, type SmtpDouble } from '../doubles/smtp-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { startTwilioGateway, type TwilioGateway } from '../../demo/sms-gateway/twilio-gateway.ts';
import webpush from 'web-push';

const VAPID = webpush.generateVAPIDKeys();
import { findChromium, launchChromium } from '../helpers/browser.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { ifInstalled, installed } from '../helpers/shipped-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const chromiumPath = findChromium();
const SLOW = { timeout: 20_000, interval: 100 };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };
const LONG_COMPOUND = 'Stromausfallbenachrichtigungen-Kandy-Peradeniya';
const LONG_UNBROKEN = 'x'.repeat(100);
const OUTBOX = 'delivery-email.outbox';
const TAMIL = /[\u0B80-\u0BFF]/;

/**
 * What a newcomer met on the pages (issue: people first), in Chromium against
 * the real service: the words at the verification limit, a verify link
 * opened twice, long names, no 404 behind a visit, the feed's own words for
 * its event types, and the manage page's messages and countdown.
 */
describe.skipIf(!chromiumPath)('the pages as people meet them, in Chromium', { timeout: 90_000 }, () => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let smtp: SmtpDouble;
  let sms: TwilioGateway;
  let started: TestApp;
  let baseUrl = '';
  let browser: Browser;
  let context: BrowserContext | undefined;
  /** Console errors, page errors, answers of 400 and above, and requests to anywhere but the service. */
  let problems: string[] = [];

  async function open(path: string, options: BrowserContextOptions = DESKTOP, { expectRefusals = false, init = '' } = {}): Promise<Page> {
    await context?.close();
    context = await browser.newContext(options);
    const page = await context.newPage();
    if (init) await page.addInitScript(init);
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      if (expectRefusals && /^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) return;
      problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => void problems.push(`page error: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400 && !expectRefusals) problems.push(`${response.status()} for ${response.request().method()} ${response.url()}`);
    });
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(`${baseUrl}/`) && !url.startsWith('blob:') && !url.startsWith('data:')) problems.push(`request to ${url}`);
    });
    await page.goto(`${baseUrl}${path}`);
    return page;
  }
  /**
   * No horizontal scroll: the page is no wider than the screen it was opened on (a phone would zoom out to
   * show a wider one, so the window itself is no measure), and the card holds its text.
   */
  const widths = async (page: Page): Promise<{ page: number; window: number; overflowing: string[] }> => {
    const measured: { page: number; overflowing: string[] } = await page.evaluate(`(() => {
      const main = document.querySelector('main').getBoundingClientRect();
      const overflowing = [...document.querySelectorAll('main *')].filter((element) => element.getBoundingClientRect().right > main.right + 1).map((element) => element.tagName);
      return { page: document.documentElement.scrollWidth, overflowing };
    })()`);
    return { ...measured, window: page.viewportSize()!.width };
  };
  const create = async (body: Record<string, unknown>) => {
    const response = await fetch(`${baseUrl}/api/notification-subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { publicId: string; manageToken: string } };
  };
  type Stored = { filter: { eventTypes?: string[] }; preferences: object };
  /** Chooses Push on the open subscribe page and subscribes; returns the manage link and the subscription as the API holds it. */
  const subscribeByPush = async (page: Page) => {
    await page.getByRole('radio', { name: 'Push notification' }).check();
    // By its id: in another language the button says Subscribe in that language.
    await page.locator('#subscribe-button').click();
    await expect.poll(() => page.getByRole('link', { name: 'Manage this subscription' }).count(), SLOW).toBe(1);
    const href = (await page.getByRole('link', { name: 'Manage this subscription' }).getAttribute('href'))!;
    const publicId = href.split('/')[2].split('#')[0];
    const token = decodeURIComponent(href.split('#token=')[1]);
    const read = async () =>
      (await (await fetch(`${baseUrl}/api/notification-subscriptions/${publicId}`, { headers: { 'x-subscription-token': token } })).json()) as Stored;
    return { href, stored: await read(), read };
  };
  /** Subscribes by push on a page in another language (the radio by its value, the button by its id); returns the subscription. */
  const subscribeByPushIn = async (page: Page) => {
    await page.locator('input[type=radio][value="Push"]').check();
    await page.locator('#subscribe-button').click();
    const link = page.locator('a[href^="/manage/"]');
    await expect.poll(() => link.count(), SLOW).toBe(1);
    const href = (await link.getAttribute('href'))!;
    const publicId = href.split('/')[2].split('#')[0];
    const token = decodeURIComponent(href.split('#token=')[1]);
    const stored = (await (
      await fetch(`${baseUrl}/api/notification-subscriptions/${publicId}`, { headers: { 'x-subscription-token': token } })
    ).json()) as Stored;
    const read = async () =>
      (await (await fetch(`${baseUrl}/api/notification-subscriptions/${publicId}`, { headers: { 'x-subscription-token': token } })).json()) as Stored;
    return { href, stored, read };
  };
  const manageUrl = (created: { publicId: string; manageToken: string }) => `/manage/${created.publicId}#token=${encodeURIComponent(created.manageToken)}`;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    [feed, push, smtp] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble(), startSmtpDouble()]);
    sms = await startTwilioGateway({
      accountSid: 'ACpages',
      authToken: 'pages-token-0123456789',
      number: '+15005550006',
      publicBaseUrl: 'http://127.0.0.1:5000',
    });
    started = await startTestApp({
      database,
      pluginsDir: realPluginsDir([
        'utility-power-outages',
        'utility-scheduled-outages',
        'delivery-push',
        'delivery-email',
        ...ifInstalled('delivery-sms', 'delivery-webpush'),
      ]),
      env: e2eEnv(feed, push, {
        ...smtp.env,
        ...sms.env,
        Sms__DefaultRegion: 'LK',
        WebPush__VapidPublicKey: VAPID.publicKey,
        WebPush__VapidPrivateKey: VAPID.privateKey,
        PowerOutages__TimeZone: 'Asia/Colombo',
        NotificationPipeline__CooldownSeconds: '30',
        EmailOutbox__IntervalSeconds: '3600',
      }),
    });
    await started.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(started.app.server.address() as { port: number }).port}`;
    browser = await launchChromium(chromiumPath!);
  });
  afterEach(() => {
    expect(problems).toEqual([]);
    problems = [];
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await started?.close();
    await Promise.all([feed?.close(), push?.close(), smtp?.close(), sms?.close()]);
    await database?.drop();
  });

  it('subscribe and manage: no 4xx, no console error, no calendar probe; the site has its icon', async () => {
    const page = await open('/subscribe');
    await expect.poll(() => page.getByLabel('Feed', { exact: true }).locator('option').count(), SLOW).toBe(2);
    await page.getByLabel('Areas').fill('Kandy');
    await page.getByRole('radio', { name: 'Push notification' }).check();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Manage this subscription' }).count(), SLOW).toBe(1);
    const manage = await open((await page.getByRole('link', { name: 'Manage this subscription' }).getAttribute('href'))!);
    await expect.poll(() => manage.getByRole('heading', { level: 2 }).textContent(), SLOW).toBe('Power outages: Kandy');
    for (const icon of ['/favicon.ico', '/favicon.svg']) {
      const response = await fetch(`${baseUrl}${icon}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^image\//);
    }
    expect(await manage.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.svg');
  });

  it("the feed's own words for its event types: a label and a hint each, one choice for types that mean the same", async () => {
    const page = await open('/subscribe');
    const group = page.getByRole('group', { name: 'Notify me about' });
    await expect.poll(() => group.getByRole('checkbox').count(), SLOW).toBe(4);
    const labels = await group.locator('label').allTextContents();
    expect(labels).toEqual(['Power outage', 'New restoration estimate', 'Power restored', 'Announcements']);
    const restored = group.getByRole('checkbox', { name: 'Power restored' });
    expect(await restored.getAttribute('aria-describedby')).toBeTruthy();
    expect(await page.locator(`#${await restored.getAttribute('aria-describedby')}`).textContent()).toBe(
      'When power comes back, also after an outage reported only once it was over.',
    );
    await restored.check();
    const { href, stored } = await subscribeByPush(page);
    // Ticking "Power restored" also gets an outage first reported once it was over.
    expect(stored.filter.eventTypes).toEqual(['Restoration', 'RestoredAnnouncement']);
    const manage = await open(href);
    await expect.poll(() => manage.locator('#details').textContent(), SLOW).toContain('Notify me aboutPower restored');
  });

  it.each([
    ['a phone, 390 px', PHONE],
    ['a desktop, 1280 px', DESKTOP],
  ])('long names fit on %s: no page scrolls sideways', async (_name, viewport) => {
    for (const displayName of [LONG_COMPOUND, LONG_UNBROKEN]) {
      const created = await create({ displayName, feedId: 'utility.power-outages', delivery: { provider: 'Push' } });
      expect(created.status).toBe(201);
      const manage = await open(manageUrl(created.body), viewport);
      await expect.poll(() => manage.getByRole('heading', { level: 2 }).textContent(), SLOW).toBe(displayName);
      const measured = await widths(manage);
      expect(measured.page, displayName).toBeLessThanOrEqual(measured.window);
      expect(measured.overflowing, displayName).toEqual([]);
    }
    const subscribe = await open('/subscribe', viewport);
    await expect.poll(() => subscribe.getByLabel('Feed', { exact: true }).locator('option').count(), SLOW).toBe(2);
    await subscribe.getByLabel(/^Name/).fill(LONG_UNBROKEN);
    await subscribe.getByRole('radio', { name: 'Push notification' }).check();
    await subscribe.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => subscribe.getByRole('heading', { name: 'You are subscribed' }).count(), SLOW).toBe(1);
    const measured = await widths(subscribe);
    expect(measured.page).toBeLessThanOrEqual(measured.window);
    expect(measured.overflowing).toEqual([]);
  });

  it("a verify link opened twice says the alerts are on, in the site's look, with the way back", async () => {
    const created = await create({
      displayName: LONG_COMPOUND,
      feedId: 'utility.power-outages',
      delivery: { provider: 'Email', destination: 'twice@example.org' },
    });
    expect(created.status).toBe(201);
    await servicesOf(started.app).workers.runNow(OUTBOX);
    const mail = smtp.messages.find((message) => message.header('to')?.includes('twice@example.org'));
    const link = /http:\/\/127\.0\.0\.1:5000(\/api\/notification-subscriptions\/[^\s>"]+\/verify\?token=[^\s>"&]+)/.exec(mail?.text ?? '')?.[1];
    expect(link).toBeDefined();
    const first = await open(link!, PHONE);
    expect(await first.getByRole('heading', { level: 1 }).textContent()).toBe('Address confirmed');
    const second = await open(link!, PHONE);
    expect(await second.getByRole('heading', { level: 1 }).textContent()).toBe('Already confirmed');
    expect(await second.locator('main').textContent()).toContain(`Your email alerts “${LONG_COMPOUND}” are on`);
    // The subscribe and manage pages' look (their stylesheet and icon), and a way back to them; the long name fits a phone.
    expect(await second.locator('link[rel="stylesheet"]').getAttribute('href')).toBe('/web/style.css');
    expect(await second.getByRole('link', { name: 'Get alerts' }).getAttribute('href')).toBe('/subscribe');
    const measured = await widths(second);
    expect(measured.page).toBeLessThanOrEqual(measured.window);
  });

  it.skipIf(!installed('delivery-sms'))(
    'offers Text message when a gateway is set up: a national number, then "Check your texts", the code arrives by text and is typed in the box on the page',
    async () => {
      const page = await open('/subscribe', PHONE, { expectRefusals: true }); // the wrong code's 400
      await expect.poll(() => page.getByLabel('Feed', { exact: true }).locator('option').count(), SLOW).toBe(2);
      await page.getByRole('radio', { name: 'Text message' }).check();
      expect(await page.getByLabel('Mobile number').getAttribute('type')).toBe('tel');
      await page.getByLabel('Mobile number').fill('077 765 4321');
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Check your texts' }).count(), SLOW).toBe(1);
      expect(await page.locator('main').textContent()).toContain('+94777654321');
      await expect.poll(() => sms.textsTo('+94777654321').length, SLOW).toBe(1);
      expect(sms.textsTo('+94777654321')[0]!.body).toMatch(/\b\d{6}\b.*reply YES/is);
      expect((await widths(page)).page).toBeLessThanOrEqual(390);
      // The code goes in the box: a wrong one says so (with the tries left) and changes nothing; the right one confirms.
      const code = /\b(\d{6})\b/.exec(sms.textsTo('+94777654321')[0]!.body)![1]!;
      const box = page.getByLabel('Code from the message');
      await box.fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect.poll(() => page.locator('#confirm-code-error').textContent(), SLOW).toBe('That is not the code we sent. 4 tries left.');
      expect(await box.getAttribute('aria-invalid')).toBe('true');
      await box.fill(code);
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'You are subscribed' }).count(), SLOW).toBe(1);
      expect(await page.evaluate('document.activeElement.id')).toBe('result');
      const link = await page.getByRole('link', { name: 'Manage this subscription' }).getAttribute('href');
      const [publicId, token] = /\/manage\/([^#]+)#token=(.+)$/.exec(link!)!.slice(1);
      const stored = await fetch(`${baseUrl}/api/notification-subscriptions/${publicId}`, { headers: { 'x-subscription-token': decodeURIComponent(token!) } });
      expect(((await stored.json()) as { isActive: boolean }).isActive).toBe(true);
      expect((await widths(page)).page).toBeLessThanOrEqual(390);
    },
  );

  it.skipIf(!installed('delivery-webpush'))(
    'offers Browser notification when VAPID keys are set: registers /sw.js, asks for permission (granted), and stops at the push service this offline machine cannot reach, saying so',
    async () => {
      const page = await open('/subscribe', DESKTOP);
      await context!.grantPermissions(['notifications'], { origin: baseUrl });
      await expect.poll(() => page.getByLabel('Feed', { exact: true }).locator('option').count(), SLOW).toBe(2);
      await page.getByRole('radio', { name: 'Browser notification' }).check();
      await page.getByRole('button', { name: 'Subscribe' }).click();
      const alert = page.getByRole('alert');
      await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toMatch(/could not reach its push service|cannot show notifications/);
      expect(await page.evaluate('Notification.permission')).toBe('granted');
      const worker = await page.evaluate(`navigator.serviceWorker.getRegistration('/').then((r) => r && (r.active || r.waiting || r.installing)?.scriptURL)`);
      expect(worker).toBe(`${baseUrl}/sw.js`);
      // Playwright's contexts are incognito, where Chromium refuses the Push API and says so in the console (crbug.com/41124656): that line, and only it, is expected.
      problems = problems.filter((problem) => !problem.includes('does not support the Push API in incognito mode'));
    },
  );

  it.skipIf(!installed('delivery-webpush'))(
    "gives up on a push service that never answers after 15 s (on the page's own clock), in the page's language (Tamil), and lets the person choose again",
    async () => {
      // A browser whose push service never answers (a normal profile offline waits for ever): subscribe() never settles.
      const page = await open('/subscribe', { ...DESKTOP, locale: 'ta-IN' }, { init: 'PushManager.prototype.subscribe = () => new Promise(() => {});' });
      await context!.grantPermissions(['notifications'], { origin: baseUrl });
      await expect.poll(() => page.getByLabel('தகவல் மூலம்', { exact: true }).locator('option').count(), SLOW).toBe(2);
      await page.locator('input[type=radio][value=WebPush]').check();
      const button = page.locator('#subscribe-button');
      // The page's clock is the test's: its 15 s pass when the test says, not on the wall clock.
      await page.clock.install();
      await button.click();
      expect(await button.isDisabled()).toBe(true);
      const alert = page.getByRole('alert');
      expect(await alert.textContent()).toBe('');
      await expect
        .poll(async () => {
          await page.clock.runFor(5_000);
          return alert.textContent();
        }, SLOW)
        .toContain('15 விநாடிகளுக்குள் பதிலளிக்கவில்லை');
      expect(await button.isDisabled()).toBe(false);
    },
  );

  it('manage page: "Change" edits the name, areas and kinds of alerts through PATCH, and shows them', async () => {
    const created = (
      await create({ displayName: 'Before', feedId: 'utility.power-outages', filter: { locationKeywords: ['Kandy'] }, delivery: { provider: 'Push' } })
    ).body;
    for (const options of [PHONE, DESKTOP]) {
      const page = await open(manageUrl(created), options);
      await page.getByRole('button', { name: 'Change' }).click();
      // The form opens with the subscription as it is (the second time, as the first saved it).
      expect(await page.getByLabel('Areas').inputValue()).toBe(options === PHONE ? 'Kandy' : 'Galle, Matara');
      await page.getByLabel('Name').fill(options === PHONE ? 'After on a phone' : 'After');
      await page.getByLabel('Areas').fill('Galle, Matara');
      await page.getByRole('checkbox', { name: 'Power restored' }).check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => page.getByRole('status').textContent(), SLOW).toMatch(/^Saved/);
      expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe(options === PHONE ? 'After on a phone' : 'After');
      expect(await page.locator('#details').textContent()).toContain('Galle, Matara');
      expect((await widths(page)).page).toBeLessThanOrEqual(options.viewport!.width);
    }
    const stored = await fetch(`${baseUrl}/api/notification-subscriptions/${created.publicId}`, {
      headers: { 'x-subscription-token': created.manageToken },
    }).then((r) => r.json());
    expect(stored).toMatchObject({
      displayName: 'After',
      filter: { locationKeywords: ['Galle', 'Matara'], eventTypes: expect.arrayContaining(['Restoration']) },
    });
  });

  it('manage page: "Change" open while the reader switches to Tamil is written again in Tamil, what was typed and ticked kept', async () => {
    const created = (
      await create({ displayName: 'Switch', feedId: 'utility.power-outages', filter: { locationKeywords: ['Kandy'] }, delivery: { provider: 'Push' } })
    ).body;
    const page = await open(manageUrl(created), PHONE);
    await page.getByRole('button', { name: 'Change' }).click();
    await page.getByLabel('Areas').fill('Galle');
    await page.getByRole('checkbox', { name: 'Power restored' }).check();
    await page.locator('#page-language').selectOption('ta');
    // The feed's own words for its field and its kinds of alert, in Tamil.
    await expect.poll(() => page.locator('label[for="edit-areas"]').textContent(), SLOW).toMatch(TAMIL);
    expect(await page.locator('#edit-type-boxes label').first().textContent()).toMatch(TAMIL);
    expect(await page.locator('#edit-areas').inputValue()).toBe('Galle');
    expect(await page.locator('#edit-type-boxes input:checked').count()).toBe(1);
    // "Where?" too, made again in Tamil.
    await expect.poll(() => page.locator('#edit-where legend').first().textContent(), SLOW).toMatch(TAMIL);
  });

  it('the result of a subscribe is written again in the language the reader switches to, the push steps too', async () => {
    const page = await open('/subscribe', PHONE);
    await expect.poll(() => page.getByLabel('Feed', { exact: true }).locator('option').count(), SLOW).toBe(2);
    await page.getByRole('radio', { name: 'Push notification' }).check();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'You are subscribed' }).count(), SLOW).toBe(1);
    await page.locator('#page-language').selectOption('ta');
    await expect.poll(() => page.locator('#result-heading').textContent(), SLOW).toMatch(TAMIL);
    // The form behind it too: "Where?" made again in Tamil.
    await expect.poll(() => page.locator('#where-field legend').first().textContent(), SLOW).toMatch(TAMIL);
    await expect.poll(() => page.locator('#result ol.steps li').first().textContent(), SLOW).toMatch(TAMIL);
    expect(await page.locator('#result a[href^="/manage/"]').count()).toBe(1);
  });

  it('a refusal shown is said again in the language the reader switches to', async () => {
    const page = await open('/subscribe', PHONE, { expectRefusals: true });
    await expect.poll(() => page.getByLabel('Feed', { exact: true }).locator('option').count(), SLOW).toBe(2);
    await page.getByRole('radio', { name: 'Email' }).check();
    await page.getByLabel('Email address').fill('not an address');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => page.locator('#form-error').textContent(), SLOW).toMatch(/this is not an email address/);
    await page.locator('#page-language').selectOption('ta');
    await expect.poll(() => page.locator('#form-error').textContent(), SLOW).toMatch(TAMIL);
  });

  it('manage page: quiet hours are set through "Change" (in this browser\'s zone), shown in the details, and switched off again', async () => {
    const created = (
      await create({ displayName: 'Nights', feedId: 'utility.power-outages', filter: { locationKeywords: ['Kandy'] }, delivery: { provider: 'Push' } })
    ).body;
    const read = () =>
      fetch(`${baseUrl}/api/notification-subscriptions/${created.publicId}`, { headers: { 'x-subscription-token': created.manageToken } }).then(
        (r) => r.json() as Promise<{ preferences: object }>,
      );
    const page = await open(manageUrl(created), PHONE);
    await expect.poll(() => page.locator('#details').textContent(), SLOW).toContain('Quiet hoursNone');
    await page.getByRole('button', { name: 'Change' }).click();
    await page.getByRole('checkbox', { name: /Hold alerts that are not urgent/ }).check();
    await page.getByLabel('From').fill('22:00');
    await page.getByLabel('Until').fill('06:30');
    expect((await widths(page)).page).toBeLessThanOrEqual(390);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), SLOW).toMatch(/^Saved/);
    const zone = await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone');
    expect((await read()).preferences).toEqual({ quietHours: { start: '22:00', end: '06:30', timeZone: zone } });
    expect(await page.locator('#details').textContent()).toContain(`Quiet hours22:00 to 06:30 (${zone})`);

    await page.getByRole('button', { name: 'Change' }).click();
    expect(await page.getByRole('checkbox', { name: /Hold alerts that are not urgent/ }).isChecked()).toBe(true);
    expect(await page.getByLabel('From').inputValue()).toBe('22:00');
    await page.getByRole('checkbox', { name: /Hold alerts that are not urgent/ }).uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await read()).preferences, SLOW).toEqual({});
  });

  it('the alerts\' language: the subscribe page offers the browser\'s (Accept-Language) first, the create keeps it, and "Change" switches it', async () => {
    const page = await open('/subscribe', { ...PHONE, locale: 'ta-IN' });
    // The page itself is in Tamil too (its labels with it): the field by its id.
    const language = page.locator('#language');
    // English, Sinhala, Tamil, and outside production the pseudo-locale en-XA.
    await expect.poll(() => language.locator('option').count(), SLOW).toBe(4);
    expect(await language.locator('option:checked').textContent()).toBe('தமிழ்');
    await page.locator('#areas').fill('Kandy');
    const { href, stored, read } = await subscribeByPushIn(page);
    expect(stored.preferences).toEqual({ language: 'ta' });
    // The result is in the page's language: what was made, and the manage link.
    expect(await page.locator('#result-heading').textContent()).toBe('நீங்கள் பதிவு செய்துள்ளீர்கள்');
    expect(await page.locator('a[href^="/manage/"]').textContent()).toBe('இந்தச் சந்தாவை நிர்வகிக்கவும்');

    const manage = await open(href, DESKTOP);
    await expect.poll(() => manage.locator('#details').textContent(), SLOW).toContain('Language of the alertsதமிழ்');
    await manage.getByRole('button', { name: 'Change' }).click();
    await manage.getByLabel('Language of the alerts').selectOption('si');
    await manage.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await read()).preferences, SLOW).toEqual({ language: 'si' });
    await expect.poll(() => manage.locator('#details').textContent(), SLOW).toContain('Language of the alertsසිංහල');

    // The manage page in Tamil: its details (and the form's Name) in Tamil, written again in English at the switch.
    const tamil = await open(href, { ...PHONE, locale: 'ta-IN' });
    await expect.poll(() => tamil.locator('#details').textContent(), SLOW).toContain('நிலைசெயலில் உள்ளது');
    expect(await tamil.locator('#details').textContent()).toContain('அமைதி நேரம்இல்லை');
    expect(await tamil.locator('label[for="edit-name"]').textContent()).toBe('பெயர்');
    await tamil.locator('#page-language').selectOption('en');
    await expect.poll(() => tamil.locator('#details').textContent(), SLOW).toContain('StatusActive');
    expect(await tamil.locator('label[for="edit-name"]').textContent()).toBe('Name');
  });

  it("the alerts' language follows the page's switch, until the reader chooses it: a Sinhala reader who subscribes at once gets Sinhala alerts", async () => {
    const page = await open('/subscribe', PHONE);
    const language = page.locator('#language');
    await expect.poll(() => language.locator('option').count(), SLOW).toBe(4);
    expect(await language.inputValue()).toBe('en');
    await page.locator('#page-language').selectOption('si');
    await expect.poll(() => language.inputValue(), SLOW).toBe('si');
    await page.locator('#areas').fill('Kandy');
    const { stored } = await subscribeByPushIn(page);
    expect(stored.preferences).toEqual({ language: 'si' });

    // Chosen by the reader, the alerts' language stays when the page switches again.
    const again = await open('/subscribe', PHONE);
    await expect.poll(() => again.locator('#language option').count(), SLOW).toBe(4);
    await again.locator('#language').selectOption('ta');
    await again.locator('#page-language').selectOption('si');
    await expect.poll(() => again.locator('html').getAttribute('lang'), SLOW).toBe('si');
    expect(await again.locator('#language').inputValue()).toBe('ta');
  });

  it("the pages follow the browser's language (Accept-Language) and offer a switch, remembered in this browser", async () => {
    const page = await open('/subscribe', { ...PHONE, locale: 'ta-IN' });
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(() => heading.textContent(), SLOW).toBe('எச்சரிக்கைகளைப் பெறுங்கள்');
    // The feed's filter fields in its own words, in the page's language.
    await expect.poll(() => page.locator('label[for="areas"]').textContent(), SLOW).toBe('பகுதிகள்');
    expect(await page.evaluate('document.documentElement.lang')).toBe('ta');
    expect(await page.locator('#subscribe-button').textContent()).toMatch(/[\u0B80-\u0BFF]/);
    expect((await widths(page)).page).toBeLessThanOrEqual(390);
    await page.locator('#page-language').selectOption('si');
    await expect.poll(() => heading.textContent(), SLOW).toBe('ඇඟවීම් ලබා ගන්න');
    await expect.poll(() => page.locator('label[for="areas"]').textContent(), SLOW).toBe('ප්‍රදේශ');
    expect((await widths(page)).page).toBeLessThanOrEqual(390);
    // Remembered: the next page comes in Sinhala, whatever the browser says.
    await page.reload();
    await expect.poll(() => heading.textContent(), SLOW).toBe('ඇඟවීම් ලබා ගන්න');
    // English puts the page's own words back, markup included.
    await page.locator('#page-language').selectOption('en');
    await expect.poll(() => heading.textContent(), SLOW).toBe('Get alerts');
    await expect.poll(() => page.locator('label[for="areas"]').textContent(), SLOW).toBe('Areas');
    expect(await page.locator('#areas-hint i').first().textContent()).toBe('Kandy, Peradeniya');
  });

  it('one link, several alerts: /manage lists them all, each manage page lists the others, and subscribing from there joins them', async () => {
    const first = (
      await create({ displayName: 'Home', feedId: 'utility.power-outages', filter: { locationKeywords: ['Kandy'] }, delivery: { provider: 'Push' } })
    ).body;
    const joined = await fetch(`${baseUrl}/api/notification-subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-subscription-token': first.manageToken },
      body: JSON.stringify({ displayName: 'Planned work', feedId: 'utility.scheduled-outages', delivery: { provider: 'Push' } }),
    });
    expect(joined.status).toBe(201);
    const list = await open(`/manage#token=${encodeURIComponent(first.manageToken)}`, PHONE);
    await expect.poll(() => list.locator('#all-alerts-list li').count(), SLOW).toBe(2);
    expect(await list.locator('#all-alerts-list').textContent()).toMatch(/Home.*Power outages, Kandy.*Planned work.*Scheduled outages/s);
    expect((await widths(list)).page).toBeLessThanOrEqual(390);

    const one = await open(manageUrl(first), DESKTOP);
    await expect.poll(() => one.locator('#all-alerts-list li').count(), SLOW).toBe(2);
    expect(await one.locator('#all-alerts-list [aria-current="page"]').textContent()).toBe('Home');
    await one.getByRole('link', { name: 'Subscribe to something else' }).click();
    await expect.poll(() => one.getByLabel('Feed', { exact: true }).locator('option').count(), SLOW).toBe(2);
    expect(await one.locator('#join-notice').isVisible()).toBe(true);
    await one.getByLabel('Areas').fill('Galle');
    await subscribeByPush(one);
    const mine = await fetch(`${baseUrl}/api/subscribers/me`, { headers: { 'x-subscription-token': first.manageToken } }).then((r) => r.json());
    expect((mine as Array<{ displayName: string }>).map((s) => s.displayName)).toEqual(['Home', 'Planned work', 'Power outages: Galle']);

    // A link someone sends with their token in it joins nothing: the token never travels in a URL.
    const lured = await open(`/subscribe#token=${encodeURIComponent(first.manageToken)}`, PHONE);
    await expect.poll(() => lured.getByLabel('Feed', { exact: true }).locator('option').count(), SLOW).toBe(2);
    expect(await lured.locator('#join-notice').isVisible()).toBe(false);
    await lured.getByLabel('Areas').fill('Matara');
    await subscribeByPush(lured);
    const after = await fetch(`${baseUrl}/api/subscribers/me`, { headers: { 'x-subscription-token': first.manageToken } }).then((r) => r.json());
    expect((after as unknown[]).length).toBe(3);
  });

  it("at the daily verification limit it says this address had its confirmations today, and when to try again, in the feed's zone", async () => {
    for (const address of ['limit@example.org', 'Limit+2@example.org', 'limit+3@example.org']) {
      expect((await create({ displayName: 'x', feedId: 'utility.power-outages', delivery: { provider: 'Email', destination: address } })).status).toBe(201);
    }
    const page = await open('/subscribe', DESKTOP, { expectRefusals: true });
    await expect.poll(() => page.getByLabel('Feed', { exact: true }).locator('option').count(), SLOW).toBe(2);
    await page.getByRole('radio', { name: 'Email' }).check();
    await page.getByLabel('Email address').fill('limit+4@example.org');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent(), SLOW).toMatch(/^This address has had all its confirmation messages for today\. You can try again in /);
    const text = (await alert.textContent())!;
    expect(text).not.toMatch(/delete/i);
    // A clock time it names is the feed's (Asia/Colombo), zone shown.
    if (/\(at /.test(text)) expect(text).toMatch(/\(at \d\d:\d\d GMT\+5:30\)\.$/);
  });

  it('manage page: the test\'s wait counts down, and no old message stays through a delete confirmation or "Keep it"', async () => {
    const created = await create({ displayName: 'Countdown', feedId: 'utility.power-outages', delivery: { provider: 'Push' } });
    const page = await open(manageUrl(created.body), DESKTOP, { expectRefusals: true });
    await expect.poll(() => page.getByRole('heading', { level: 2 }).textContent(), SLOW).toBe('Countdown');
    await page.getByRole('button', { name: 'Send a test notification' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), SLOW).toMatch(/^Test sent by Push notification/);
    await page.getByRole('button', { name: 'Send a test notification' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent(), SLOW).toMatch(/You can send another one in \d+ seconds/);
    const seconds = async () => Number(/in (\d+) seconds?/.exec((await alert.textContent()) ?? '')?.[1] ?? NaN);
    const before = await seconds();
    await expect.poll(seconds, SLOW).toBeLessThan(before);
    expect(await page.getByRole('button', { name: 'Send a test notification' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Delete subscription' }).click();
    expect(await alert.textContent()).toBe('');
    expect(await alert.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect(await alert.textContent()).toBe('');
    expect(await page.getByRole('status').textContent()).toBe('');
  });
});
