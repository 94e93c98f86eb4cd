import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startSmtpDouble, type SmtpDouble } from '../doubles/smtp-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { findChromium, launchChromium } from '../helpers/browser.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { E2E_JWT_SECRET, e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { untranslated } from '../helpers/pseudo-check.ts';
import { createdSubscription } from '../helpers/created-subscription.ts';
import { ifInstalled } from '../helpers/shipped-plugins.ts';
import { servicesOf } from '../../core/app.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const chromiumPath = findChromium();
const VAPID = webpush.generateVAPIDKeys();
const SLOW = { timeout: 20_000, interval: 100 };
/** A reader whose browser asks for the pseudo-locale: every page should speak it. */
const PSEUDO: BrowserContextOptions = { viewport: { width: 1280, height: 900 }, locale: 'en-XA' };
/** What the test puts in: a subscription's name and the feed's places (values, never translated). */
const OUTBOX = 'delivery-email.outbox';
const DATA = ['token:night-shift', 'night-shift', 'Kandy home', 'Kandy', 'Peradeniya', 'F12', 'PO-PSEUDO', 'Fallen line', 'someone@example.org'];

/**
 * Every page and state read in the pseudo-locale `en-XA`: a text on it that
 * is not accented came from no message catalog (it is written into code, or
 * a catalog lacks it), so a Sinhala or Tamil reader would meet English
 * there. Allowed plain: product and language names, URLs, numbers, dates
 * and the values a person or a feed gave.
 */
describe.skipIf(!chromiumPath)('every page in the pseudo-locale en-XA', { timeout: 120_000 }, () => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let smtp: SmtpDouble;
  let started: TestApp;
  let baseUrl = '';
  let browser: Browser;
  let manage = '';
  /** The push topic of the subscription read in en-XA. */
  let topic = '';

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    [feed, push, smtp] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble(), startSmtpDouble()]);
    started = await startTestApp({
      database,
      pluginsDir: realPluginsDir([
        'utility-power-outages',
        'utility-scheduled-outages',
        'delivery-push',
        'delivery-email',
        ...ifInstalled('delivery-webpush', 'delivery-sms', 'delivery-webhook'),
      ]),
      env: e2eEnv(feed, push, {
        ...smtp.env,
        WebPush__VapidPublicKey: VAPID.publicKey,
        WebPush__VapidPrivateKey: VAPID.privateKey,
        PowerOutages__TimeZone: 'Asia/Colombo',
        PowerOutages__Enabled: 'true',
        PowerOutages__PollingIntervalSeconds: '3600',
        EmailOutbox__IntervalSeconds: '3600',
      }),
    });
    await started.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(started.app.server.address() as { port: number }).port}`;
    const created = await createdSubscription(baseUrl, {
      displayName: 'Kandy home',
      feedId: 'utility.power-outages',
      delivery: { provider: 'Push' },
      filter: { locationKeywords: ['Kandy'] },
      preferences: { language: 'en-XA' },
    });
    topic = created.delivery.destination;
    manage = created.manage;
    browser = await launchChromium(chromiumPath!);
  });
  afterAll(async () => {
    await browser?.close();
    await started?.close();
    await Promise.all([feed?.close(), push?.close(), smtp?.close()]);
    await database?.drop();
  });

  /** A page opened by a reader whose browser asks for en-XA; `html`: a page the service writes (no script sets its language). */
  async function opened(path: string, { html = false } = {}): Promise<{ page: Page; close: () => Promise<void> }> {
    const context = await browser.newContext(PSEUDO);
    const page = await context.newPage();
    await page.goto(`${baseUrl}${path}`);
    await page.waitForLoadState('networkidle');
    if (html) expect(await page.evaluate('document.documentElement.lang')).toBe('en-XA');
    else await expect.poll(() => page.evaluate('document.documentElement.lang'), SLOW).toBe('en-XA');
    return { page, close: () => context.close() };
  }

  // The topic is the service's random name: a value like the others, and
  // not always with a digit in it for the pattern of a made-up name to know it.
  const check = async (page: Page) => untranslated((await page.evaluate(READ_TEXTS)) as string[], [...DATA, topic]);

  it.each([
    ['the subscribe page', () => '/subscribe'],
    ['the manage page', () => manage],
    ['the outages map', () => '/outages'],
    ['"Still out?"', () => '/still-out'],
    ['"Did you get the alert?"', () => '/confirm'],
    ['the console, signed out', () => '/console'],
  ])('%s: every text is pseudo-localised', async (_name, path) => expectPage(path()));

  it('the subscribe page, a refused address and then the result: pseudo-localised', async () => {
    const { page, close } = await opened('/subscribe');
    try {
      await page.locator('input[type=radio][value="Email"]').check();
      await page.locator('#destination').fill('not an address');
      await page.locator('#subscribe-button').click();
      await expect.poll(() => page.locator('#form-error').textContent(), SLOW).not.toBe('');
      expect.soft(await check(page)).toEqual([]);
      await page.locator('input[type=radio][value="Push"]').check();
      await page.locator('#subscribe-button').click();
      await expect.poll(() => page.locator('#result').isVisible(), SLOW).toBe(true);
      expect.soft(await check(page)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the manage page, changed and saved, tested: pseudo-localised', async () => {
    const { page, close } = await opened(manage);
    try {
      await page.locator('#edit-button').click();
      expect.soft(await check(page)).toEqual([]);
      await page.locator('#edit-save').click();
      await expect.poll(() => page.locator('#manage-status').textContent(), SLOW).not.toBe('');
      expect.soft(await check(page)).toEqual([]);
      await page.locator('#test-button').click();
      await expect.poll(() => page.locator('#manage-status').textContent(), SLOW).not.toMatch(/^$/);
      expect.soft(await check(page)).toEqual([]);
    } finally {
      await close();
    }
  });
  it('the console, signed in: pseudo-localised', async () => {
    const { page, close } = await opened('/console');
    try {
      await page.locator('#admin-token').fill(jwtFor(E2E_JWT_SECRET, { sub: 'night-shift', role: 'admin' }));
      await page.locator('#token-form button[type=submit]').click();
      await expect.poll(() => page.locator('#signed-in').isVisible(), SLOW).toBe(true);
      await expect.poll(() => page.locator('#refreshed').textContent(), SLOW).not.toBe('');
      expect(await check(page)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the check itself finds an English text put on a page: it is not passing by reading nothing', async () => {
    const { page, close } = await opened('/subscribe');
    try {
      const texts = (await page.evaluate(READ_TEXTS)) as string[];
      expect(texts.length).toBeGreaterThan(20);
      await page.evaluate(`document.querySelector('main').append(Object.assign(document.createElement('p'), { textContent: 'Written into the code' }))`);
      expect(await check(page)).toEqual(['Written into the code']);
    } finally {
      await close();
    }
  });

  it('the emails (the verification, an alert), their link pages, and an alert by push: all pseudo-localised', async () => {
    const services = servicesOf(started.app);
    const answer = await fetch(`${baseUrl}/api/notification-subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        displayName: 'Kandy home',
        feedId: 'utility.power-outages',
        delivery: { provider: 'Email', destination: 'someone@example.org' },
        filter: { locationKeywords: ['Kandy'] },
        preferences: { language: 'en-XA' },
      }),
    });
    expect(answer.status).toBe(201);
    const emailSubscription = (await answer.json()) as { publicId: string; manageToken: string };
    const mails = () => smtp.messages.filter((message) => message.header('to')?.includes('someone@example.org'));
    await services.workers.runNow(OUTBOX);
    await expect.poll(() => mails().length, SLOW).toBe(1);
    const [verification] = mails();
    expect(untranslated([verification!.header('subject') ?? '', ...lines(verification!.text)], DATA)).toEqual([]);
    const verify = /http:\/\/127\.0\.0\.1:5000(\/api\/notification-subscriptions\/[^\s>"]+\/verify\?token=[^\s>"&]+)/.exec(verification!.text ?? '')?.[1];
    expect(verify).toBeDefined();
    await expectPage(verify!);
    // Its manage page, a destination of its own in the details.
    await expectPage(`/manage/${emailSubscription.publicId}#token=${encodeURIComponent(emailSubscription.manageToken)}`);

    feed.setPowerOutages([
      { id: 'PO-PSEUDO', feeder: 'F12', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null, cause: 'Fallen line' },
    ]);
    await services.workers.runNow('utility-power-outages.monitor', { force: true });
    await services.dispatcher.settle();
    await expect.poll(() => push.messages(topic).length, SLOW).toBeGreaterThan(0);
    const alert = push.messages(topic)[0]!;
    expect(untranslated([alert.title ?? '', ...lines(alert.message)], DATA)).toEqual([]);
    await expect
      .poll(async () => {
        await services.workers.runNow(OUTBOX);
        return mails().length;
      }, SLOW)
      .toBe(2);
    const alertMail = mails()[1]!;
    expect(untranslated([alertMail.header('subject') ?? '', ...lines(alertMail.text)], DATA)).toEqual([]);
    const unsubscribe = /http:\/\/127\.0\.0\.1:5000(\/api\/notification-subscriptions\/[^\s>"]+\/unsubscribe\?token=[^\s>"&]+)/.exec(alertMail.text ?? '')?.[1];
    expect(unsubscribe).toBeDefined();
    const { page, close } = await opened(unsubscribe!, { html: true });
    try {
      expect(await check(page)).toEqual([]);
      await page.locator('form button').click();
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate('document.documentElement.lang')).toBe('en-XA');
      expect(await check(page)).toEqual([]);
    } finally {
      await close();
    }
    // A link that names no subscription: the page in the browser's language.
    await expectPage('/api/notification-subscriptions/nobody/unsubscribe?token=x');
    // The outages map, now with an outage listed.
    await expectPage('/outages');
  });

  /** Opens a page and finds every text on it pseudo-localised. */
  async function expectPage(path: string) {
    const { page, close } = await opened(path, { html: path.startsWith('/api/') });
    try {
      expect(await check(page)).toEqual([]);
    } finally {
      await close();
    }
  }
});

/** A message's lines, its links (values) left out. */
const lines = (text: string | undefined) =>
  (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The texts a reader meets: visible text, and the names and hints a screen reader or a hover shows. */
const READ_TEXTS = `(() => {
  const texts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode()); ) {
    const element = node.parentElement;
    const text = node.textContent.trim();
    if (!text || !element || element.closest('script, style, template, [translate="no"]')) continue;
    if (!element.checkVisibility({ visibilityProperty: true })) continue;
    texts.push(text);
  }
  // A closed list's choices are not visible, but each is read when it is chosen.
  for (const option of document.querySelectorAll('select option')) {
    const text = option.textContent.trim();
    if (text && !option.closest('[translate="no"]')) texts.push(text);
  }
  for (const element of document.querySelectorAll('[aria-label], [placeholder], [title], img[alt]')) {
    if (element.closest('[translate="no"]')) continue;
    for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
      const value = element.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  return texts;
})()`;
