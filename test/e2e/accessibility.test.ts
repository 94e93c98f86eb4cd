import AxeBuilder from '@axe-core/playwright';
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
import { createdSubscription } from '../helpers/created-subscription.ts';
import { ifInstalled, installed } from '../helpers/shipped-plugins.ts';
import { startTwilioGateway, type TwilioGateway } from '../../demo/sms-gateway/twilio-gateway.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const chromiumPath = findChromium();
const VAPID = webpush.generateVAPIDKeys();
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };
/** 1280 px at 200 % zoom: a 640 px wide viewport at twice the pixels. */
const ZOOMED: BrowserContextOptions = { viewport: { width: 640, height: 450 }, deviceScaleFactor: 2 };
/** WCAG 2.0, 2.1 and 2.2, levels A and AA: what public bodies must meet (EN 301 549). */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/**
 * Accessibility kept: axe-core, run in Chromium on every page and state
 * people reach, finds no WCAG 2.x A or AA violation at 390 and 1280 px, and
 * no page scrolls sideways at 200 % zoom.
 */
describe.skipIf(!chromiumPath)('every page, checked with axe-core in Chromium (WCAG 2.2 AA)', { timeout: 120_000 }, () => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let smtp: SmtpDouble;
  let sms: TwilioGateway;
  let started: TestApp;
  let baseUrl = '';
  let browser: Browser;
  let manage = '';

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    [feed, push, smtp] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble(), startSmtpDouble()]);
    sms = await startTwilioGateway({ accountSid: 'ACaxe', authToken: 'axe-token-0123456789', number: '+15005550006', publicBaseUrl: 'http://127.0.0.1:5000' });
    started = await startTestApp({
      database,
      pluginsDir: realPluginsDir([
        'utility-power-outages',
        'utility-scheduled-outages',
        'delivery-push',
        'delivery-email',
        ...ifInstalled('delivery-webpush', 'delivery-sms'),
      ]),
      env: e2eEnv(feed, push, {
        ...smtp.env,
        ...sms.env,
        Sms__DefaultRegion: 'LK',
        WebPush__VapidPublicKey: VAPID.publicKey,
        WebPush__VapidPrivateKey: VAPID.privateKey,
        PowerOutages__TimeZone: 'Asia/Colombo',
        EmailOutbox__IntervalSeconds: '3600',
      }),
    });
    await started.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(started.app.server.address() as { port: number }).port}`;
    ({ manage } = await createdSubscription(baseUrl, {
      displayName: 'Kandy home',
      feedId: 'utility.power-outages',
      delivery: { provider: 'Push' },
      filter: { locationKeywords: ['Kandy'] },
    }));
    browser = await launchChromium(chromiumPath!);
  });
  afterAll(async () => {
    await browser?.close();
    await started?.close();
    await Promise.all([feed?.close(), push?.close(), smtp?.close(), sms?.close()]);
    await database?.drop();
  });

  /** Opens `path` and waits for the page's own script to have drawn it (its main landmark holds text). */
  async function opened(path: string, options: BrowserContextOptions): Promise<{ page: Page; close: () => Promise<void> }> {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    await page.goto(`${baseUrl}${path}`);
    await page.waitForLoadState('networkidle');
    return { page, close: () => context.close() };
  }

  async function violations(page: Page): Promise<string[]> {
    const result = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }

  const PAGES: ReadonlyArray<[string, () => string, string?]> = [
    ['the subscribe page', () => '/subscribe'],
    ['the subscribe page in Sinhala', () => '/subscribe', 'si-LK'],
    ['the subscribe page in Tamil', () => '/subscribe', 'ta-IN'],
    ['the manage page', () => manage],
    ['the manage page in Tamil', () => manage, 'ta-IN'],
    ['the outages map', () => '/outages'],
    ['"Still out?" without a link', () => '/still-out'],
    ['"Did you get the alert?" without a link, in Tamil', () => '/confirm', 'ta-IN'],
    ['the console, signed out', () => '/console'],
    ['the console in Sinhala, signed out', () => '/console', 'si-LK'],
    ["an email's verify link that does not work", () => '/api/notification-subscriptions/nobody/verify?token=x'],
    ["an email's unsubscribe link that does not work, in Tamil", () => '/api/notification-subscriptions/nobody/unsubscribe?token=x', 'ta-IN'],
  ];

  it.each(
    PAGES.flatMap(([name, path, locale]) => [
      [`${name} at 390 px`, path, { ...PHONE, locale }] as const,
      [`${name} at 1280 px`, path, { ...DESKTOP, locale }] as const,
    ]),
  )('%s: no WCAG 2.2 A or AA violation', async (_name, path, options) => {
    const { page, close } = await opened(path(), options);
    try {
      // A page asked for in Sinhala or Tamil is checked in it, not in English.
      const language = options.locale?.slice(0, 2) ?? 'en';
      await expect.poll(() => page.evaluate('document.documentElement.lang'), { timeout: 20_000 }).toBe(language);
      expect(await violations(page)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the check itself finds a violation put on a page (an image with no text equivalent): it is not passing by doing nothing', async () => {
    const { page, close } = await opened('/subscribe', DESKTOP);
    try {
      await page.evaluate(`document.querySelector('main').append(Object.assign(document.createElement('img'), { src: '/favicon.svg' }))`);
      expect((await violations(page)).some((line) => line.startsWith('image-alt'))).toBe(true);
    } finally {
      await close();
    }
  });

  it('the subscribe page after subscribing (the result shown and announced): no violation', async () => {
    const { page, close } = await opened('/subscribe', PHONE);
    try {
      await page.getByRole('radio', { name: 'Push notification' }).check();
      await page.locator('#subscribe-button').click();
      await expect.poll(() => page.getByRole('link', { name: 'Manage this subscription' }).count(), { timeout: 20_000 }).toBe(1);
      // The result is where a screen reader hears it: in a live region, or where focus was moved.
      const announced = await page.evaluate(`(() => {
        const link = [...document.querySelectorAll('a')].find((a) => a.textContent.includes('Manage this subscription'));
        const live = link.closest('[aria-live], [role="status"], [role="alert"]');
        const focused = document.activeElement && document.activeElement !== document.body && document.activeElement.contains(link) || link.closest(':focus-within') !== null;
        return live !== null || focused;
      })()`);
      expect(announced).toBe(true);
      expect(await violations(page)).toEqual([]);
    } finally {
      await close();
    }
  });

  it.skipIf(!installed('delivery-sms'))("the subscribe page waiting for a text's code, after a wrong one (in Tamil): no violation", async () => {
    const { page, close } = await opened('/subscribe', { ...PHONE, locale: 'ta-IN' });
    try {
      await page.locator('input[type=radio][value="Sms"]').check();
      await page.locator('#destination').fill('077 123 4567');
      await page.locator('#subscribe-button').click();
      await page.locator('#confirm-code').fill('12');
      await page.locator('.code-form button').click();
      await expect.poll(() => page.locator('#confirm-code-error').textContent(), { timeout: 20_000 }).not.toBe('');
      expect(await page.locator('#confirm-code').getAttribute('aria-invalid')).toBe('true');
      expect(await violations(page)).toEqual([]);
    } finally {
      await close();
    }
  });

  it.each([
    ['390 px', PHONE],
    ['1280 px', DESKTOP],
    ['1280 px, in Tamil', { ...DESKTOP, locale: 'ta-IN' }],
  ] as const)('the console signed in at %s: no WCAG 2.2 A or AA violation', async (_name, options) => {
    const { page, close } = await opened('/console', options);
    try {
      await page.locator('#admin-token').fill(jwtFor(E2E_JWT_SECRET, { sub: 'night-shift', role: 'admin' }));
      await page.locator('#token-form button[type=submit]').click();
      await expect.poll(() => page.locator('#refreshed').textContent(), { timeout: 20_000 }).not.toBe('');
      await page.waitForLoadState('networkidle');
      expect(await violations(page)).toEqual([]);
      // An announcement previewed, waiting for its confirmation.
      await page.locator('#announce-title').fill('Storm warning');
      await page.locator('#announce-message').fill('Lines may fall tonight.');
      await page.locator('#preview-button').click();
      await expect.poll(() => page.locator('#preview').isVisible(), { timeout: 20_000 }).toBe(true);
      expect(await violations(page)).toEqual([]);
    } finally {
      await close();
    }
  });

  it.each([
    ['390 px', PHONE],
    ['1280 px, in Tamil', { ...DESKTOP, locale: 'ta-IN' }],
  ] as const)('the manage page with "Change" open at %s: no WCAG 2.2 A or AA violation', async (_name, options) => {
    const { page, close } = await opened(manage, options);
    try {
      await page.locator('#edit-button').click();
      await expect.poll(() => page.locator('#edit-form').isVisible(), { timeout: 20_000 }).toBe(true);
      await page.waitForLoadState('networkidle');
      expect(await violations(page)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('subscribing and then sending a test with the keyboard alone, every control reached showing where the focus is', async () => {
    const { page, close } = await opened('/subscribe', DESKTOP);
    try {
      /** Tabs until `selector` has the focus, checking on the way that each control focused shows it (an outline or a ring). */
      const tabTo = async (selector: string) => {
        for (let step = 0; step < 60; step += 1) {
          await page.keyboard.press('Tab');
          const focus = (await page.evaluate(`(() => {
            const element = document.activeElement;
            if (!element || element === document.body) return null;
            const style = getComputedStyle(element);
            return { matches: element.matches(${JSON.stringify(selector)}), shown: style.outlineStyle !== 'none' && style.outlineWidth !== '0px' || style.boxShadow !== 'none', name: element.id || element.tagName };
          })()`)) as { matches: boolean; shown: boolean; name: string } | null;
          if (!focus) continue;
          expect(focus.shown, `the focus on ${focus.name} is visible`).toBe(true);
          if (focus.matches) return;
        }
        throw new Error(`${selector} was not reached with Tab`);
      };
      await tabTo('input[type=radio][name="provider"]');
      // Radios of one group: the arrow keys move the choice, as in every browser.
      for (let step = 0; step < 6 && !(await page.locator('input[type=radio][value="Push"]').isChecked()); step += 1) {
        await page.keyboard.press('ArrowDown');
      }
      expect(await page.locator('input[type=radio][value="Push"]').isChecked()).toBe(true);
      await tabTo('#subscribe-button');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('a[href^="/manage/"]').count(), { timeout: 20_000 }).toBe(1);
      await tabTo('a[href^="/manage/"]');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/manage\//);
      await page.waitForLoadState('networkidle');
      await tabTo('#test-button');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('#manage-status').textContent(), { timeout: 20_000 }).toMatch(/^Test sent by /);
    } finally {
      await close();
    }
  });

  it.each(PAGES.map(([name, path, locale]) => [name, path, locale] as const))(
    '%s, zoomed to 200 percent: no sideways scrolling',
    async (_name, path, locale) => {
      const { page, close } = await opened(path(), { ...ZOOMED, locale });
      try {
        const { scroll, window } = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, window: window.innerWidth })')) as {
          scroll: number;
          window: number;
        };
        expect(scroll).toBeLessThanOrEqual(window);
      } finally {
        await close();
      }
    },
  );
});
