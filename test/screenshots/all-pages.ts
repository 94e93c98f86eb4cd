// Every page a person or an operator meets, at a phone's width (390 px) and a desktop's (1280 px), full
// length, for a person to open and look at: `npm run screenshot:pages [-- <folder>]` (default
// test/.tmp/screens). The real service with the test doubles, in headless Chromium.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { projectRoot } from '../../core/paths.ts';
import { startPushServerDouble } from '../doubles/push-server-double.ts';
import { startSmtpDouble } from '../doubles/smtp-double.ts';
import { startUtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { startSmsGateway } from '../../demo/sms-gateway/phone-pages.ts';
import { findChromium, launchChromium } from '../helpers/browser.ts';
import { preferredKind, provisionDatabase, tmpRoot } from '../helpers/databases.ts';
import { e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { ifInstalled, installed } from '../helpers/shipped-plugins.ts';
import { startTestApp } from '../helpers/test-app.ts';
import { servicesOf } from '../../core/app.ts';

const folder = path.resolve(process.argv[2] ?? path.join(projectRoot, 'test', '.tmp', 'screens'));
const WIDTHS: Record<string, BrowserContextOptions> = {
  '390': { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
  '1280': { viewport: { width: 1280, height: 800 } },
};

const chromiumPath = findChromium();
if (!chromiumPath) process.exit(1);
mkdirSync(tmpRoot(), { recursive: true });
mkdirSync(folder, { recursive: true });
const database = await provisionDatabase(await preferredKind());
const [feed, push, smtp] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble(), startSmtpDouble()]);
const sms = await startSmsGateway({ publicBaseUrl: 'http://127.0.0.1:5000' });
const started = await startTestApp({
  database,
  pluginsDir: realPluginsDir([
    'utility-power-outages',
    'utility-scheduled-outages',
    'delivery-push',
    'delivery-email',
    ...ifInstalled('delivery-sms', 'delivery-webhook'),
  ]),
  env: e2eEnv(feed, push, {
    ...smtp.env,
    ...sms.env,
    Sms__DefaultRegion: 'LK',
    Logging__Level: 'warn',
    PowerOutages__TimeZone: 'Asia/Colombo',
    EmailOutbox__IntervalSeconds: '3600',
    PowerOutages__Enabled: 'true',
    PowerOutages__PollingIntervalSeconds: '3600',
    Map__Center: '7.2906,80.6337',
  }),
});
// Two outages with their shapes, and one without, for the map.
const block = (lon: number, lat: number, size: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [lon, lat],
      [lon + size, lat],
      [lon + size, lat + size],
      [lon, lat + size],
      [lon, lat],
    ],
  ],
});
feed.setPowerOutages([
  {
    id: 'PO-K',
    feeder: 'F12',
    areas: ['Kandy'],
    timeOff: '2026-11-22T08:15:00+05:30',
    timeRestored: null,
    customersAffected: 1200,
    geometry: block(80.63, 7.29, 0.01),
  },
  {
    id: 'PO-P',
    feeder: 'F7',
    areas: ['Peradeniya', 'Gannoruwa'],
    timeOff: '2026-11-22T09:40:00+05:30',
    timeRestored: null,
    customersAffected: 310,
    geometry: block(80.59, 7.26, 0.012),
  },
  { id: 'PO-G', feeder: 'F3', areas: ['Gampola'], timeOff: '2026-11-22T10:05:00+05:30', timeRestored: null },
]);
await servicesOf(started.app).workers.runNow('utility-power-outages.monitor', { force: true });
const browser = await launchChromium(chromiumPath);
const written: string[] = [];
try {
  const baseUrl = await started.app.listen({ host: '127.0.0.1', port: 0 });
  sms.setServiceUrl(baseUrl);
  const api = async (body: object) =>
    (await (
      await fetch(`${baseUrl}/api/notification-subscriptions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    ).json()) as {
      publicId: string;
      manageToken: string;
    };
  const push1 = await api({
    displayName: 'Stromausfallbenachrichtigungen-Kandy-Peradeniya',
    feedId: 'utility.power-outages',
    filter: { locationKeywords: ['Kandy'] },
    delivery: { provider: 'Push' },
  });
  const planned = await api({
    displayName: 'Gampola planned work',
    feedId: 'utility.scheduled-outages',
    filter: { locationKeywords: ['Gampola'] },
    delivery: { provider: 'Push' },
  });
  // Joined to the first one's link: its manage pages list both.
  await fetch(`${baseUrl}/api/notification-subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-subscription-token': push1.manageToken },
    body: JSON.stringify({
      displayName: 'Office in Peradeniya',
      feedId: 'utility.power-outages',
      filter: { locationKeywords: ['Peradeniya'] },
      delivery: { provider: 'Push' },
    }),
  });
  await api({ displayName: 'Home', feedId: 'utility.power-outages', delivery: { provider: 'Email', destination: 'shots@example.org' } });
  const placed = await api({
    displayName: 'Home and the office',
    feedId: 'utility.power-outages',
    filter: {
      places: [
        { name: 'Home', lat: 7.292, lon: 80.632, radiusMeters: 250 },
        { name: 'Office', lat: 7.2655, lon: 80.5955, radiusMeters: 500 },
      ],
    },
    delivery: { provider: 'Push' },
  });
  await servicesOf(started.app).workers.runNow('delivery-email.outbox');
  const mail = smtp.messages.find((message) => message.header('to')?.includes('shots@example.org'))!;
  const verify = /http:\/\/127\.0\.0\.1:5000(\/api\/notification-subscriptions\/[^\s>"]+\/verify\?token=[^\s>"&]+)/.exec(mail.text ?? '')![1];

  const pages: Array<[string, (page: Page) => Promise<void>]> = [
    [
      'subscribe',
      async (page) => {
        await page.goto(`${baseUrl}/subscribe`);
        await page.getByLabel('Feed', { exact: true }).locator('option').first().waitFor({ state: 'attached' });
        await page.getByLabel('Areas').fill('Kandy');
      },
    ],
    [
      // The planned outages' kinds of alert, the register's notice among them.
      'subscribe-scheduled',
      async (page) => {
        await page.goto(`${baseUrl}/subscribe`);
        await page.getByLabel('Feed', { exact: true }).selectOption({ label: 'Scheduled outages' });
        await page.getByLabel('Areas').fill('Gampola');
      },
    ],
    [
      'subscribe-push-result',
      async (page) => {
        await page.goto(`${baseUrl}/subscribe`);
        await page.getByLabel('Areas').fill('Kandy, Peradeniya');
        await page.getByRole('radio', { name: 'Push notification' }).check();
        await page.getByRole('button', { name: 'Subscribe' }).click();
        await page.locator('img.qr[src^="blob:"]').waitFor();
      },
    ],
    [
      'subscribe-email-result',
      async (page) => {
        await page.goto(`${baseUrl}/subscribe`);
        await page.getByLabel('Feed', { exact: true }).selectOption({ label: 'Scheduled outages' });
        await page.getByRole('radio', { name: 'Email' }).check();
        await page.getByLabel('Email address').fill(`someone-${Date.now() % 100000}@example.org`);
        await page.getByRole('button', { name: 'Subscribe' }).click();
        await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
      },
    ],
    [
      'subscribe-sms-result',
      async (page) => {
        await page.goto(`${baseUrl}/subscribe`);
        await page.getByRole('radio', { name: 'Text message' }).check();
        await page.getByLabel('Mobile number').fill(`077 ${String(1_000_000 + (Date.now() % 1_000_000)).slice(-7)}`);
        await page.getByRole('button', { name: 'Subscribe' }).click();
        await page.getByRole('heading', { name: 'Check your texts' }).waitFor();
      },
    ],
    [
      'subscribe-webhook-result',
      async (page) => {
        await page.goto(`${baseUrl}/subscribe`);
        await page.getByRole('radio', { name: 'Webhook' }).check();
        await page.getByLabel('Webhook URL').fill('https://hooks.example.org/outages');
        await page.getByRole('button', { name: 'Subscribe' }).click();
        await page.getByRole('heading', { name: 'You are subscribed' }).waitFor();
      },
    ],
    [
      'demo-text-gateway-phone',
      async (page) => {
        const phone = sms.texts.at(-1)!.to;
        await page.goto(`${sms.baseUrl}/phone/${encodeURIComponent(phone)}`);
        await page.getByLabel('Reply').fill('YES');
        await page.getByRole('button', { name: 'Send' }).click();
        await page.locator('.text.mine').first().waitFor();
      },
    ],
    [
      'subscribe-where',
      async (page) => {
        await page.goto(`${baseUrl}/subscribe`);
        await page.getByRole('group', { name: /^Where\?/ }).waitFor();
        await page.getByRole('button', { name: 'Use my location' }).click();
        await page.getByLabel('What to call it').fill('Home');
        await page.getByLabel('Distance around it').selectOption({ label: '250 m' });
        await page.getByRole('button', { name: 'Add this place' }).click();
        await page.locator('#where-list li').filter({ hasText: 'Home' }).waitFor();
      },
    ],
    [
      'outages',
      async (page) => {
        await page.goto(`${baseUrl}/outages`);
        await page.locator('#outages-map .map-label').nth(1).waitFor();
      },
    ],
    [
      'manage-places',
      async (page) => {
        await page.goto(`${baseUrl}/manage/${placed.publicId}#token=${encodeURIComponent(placed.manageToken)}`);
        await page.locator('#places-map path').nth(3).waitFor();
      },
    ],
    [
      'manage-edit-places',
      async (page) => {
        await page.goto(`${baseUrl}/manage/${placed.publicId}#token=${encodeURIComponent(placed.manageToken)}`);
        await page.getByRole('button', { name: 'Change' }).click();
        await page.locator('#edit-where-list li').nth(1).waitFor();
      },
    ],
    [
      'subscribe-error',
      async (page) => {
        await page.goto(`${baseUrl}/subscribe`);
        await page.getByRole('radio', { name: 'Email' }).check();
        await page.getByLabel('Email address').fill('not an address');
        await page.getByRole('button', { name: 'Subscribe' }).click();
        await page.getByRole('alert').filter({ hasText: 'Email address' }).waitFor();
      },
    ],
    [
      'manage-push',
      async (page) => {
        await page.goto(`${baseUrl}/manage/${push1.publicId}#token=${encodeURIComponent(push1.manageToken)}`);
        await page.locator('img.qr[src^="blob:"]').waitFor();
      },
    ],
    [
      'manage-all-alerts',
      async (page) => {
        await page.goto(`${baseUrl}/manage#token=${encodeURIComponent(push1.manageToken)}`);
        await page.locator('#all-alerts-list li').nth(1).waitFor();
      },
    ],
    [
      'manage-edit',
      async (page) => {
        await page.goto(`${baseUrl}/manage/${push1.publicId}#token=${encodeURIComponent(push1.manageToken)}`);
        await page.getByRole('button', { name: 'Change' }).click();
        await page.getByLabel('Areas').waitFor();
      },
    ],
    [
      'manage-calendar',
      async (page) => {
        await page.goto(`${baseUrl}/manage/${planned.publicId}#token=${encodeURIComponent(planned.manageToken)}`);
        await page.getByRole('link', { name: 'Add to my calendar' }).waitFor();
      },
    ],
    [
      'manage-bad-link',
      async (page) => {
        await page.goto(`${baseUrl}/manage/${push1.publicId}`);
        await page.getByRole('alert').filter({ hasText: 'manage link' }).waitFor();
      },
    ],
    ['verify-confirmed', async (page) => void (await page.goto(`${baseUrl}${verify}`))],
    ['verify-already', async (page) => void (await page.goto(`${baseUrl}${verify}`))],
    ['verify-bad-link', async (page) => void (await page.goto(`${baseUrl}/api/notification-subscriptions/nope/verify?token=x`, { referer: undefined }))],
    [
      'docs',
      async (page) => {
        await page.goto(`${baseUrl}/docs`);
        await page.locator('.opblock').first().waitFor();
      },
    ],
    // Last: the choice is remembered in the browser, and would put the pages after it in Sinhala too.
    [
      'subscribe-sinhala',
      async (page) => {
        await page.goto(`${baseUrl}/subscribe`);
        await page.locator('#page-language option').nth(2).waitFor({ state: 'attached' });
        await page.locator('#page-language').selectOption('si');
        await page.locator('h1[lang], html[lang="si"]').first().waitFor({ state: 'attached' });
      },
    ],
    // Last: a page switched to another language keeps it (localStorage) for the pages after it.
    [
      'manage-push-ta',
      async (page) => {
        await page.goto(`${baseUrl}/manage/${push1.publicId}#token=${encodeURIComponent(push1.manageToken)}`);
        await page.locator('img.qr[src^="blob:"]').waitFor();
        await page.locator('#page-language').selectOption('ta');
        await page.locator('#details dt', { hasText: 'நிலை' }).waitFor();
      },
    ],
    [
      'subscribe-push-result-si',
      async (page) => {
        await page.goto(`${baseUrl}/subscribe`);
        await page.locator('#page-language option[value="si"]').waitFor({ state: 'attached' });
        await page.locator('#page-language').selectOption('si');
        await page.locator('#areas').fill('Kandy');
        await page.locator('input[type=radio][value="Push"]').check();
        await page.locator('#subscribe-button').click();
        await page.locator('img.qr[src^="blob:"]').waitFor();
      },
    ],
    [
      'subscribe-sms-code-ta',
      async (page) => {
        await page.goto(`${baseUrl}/subscribe`);
        await page.locator('#page-language option[value="ta"]').waitFor({ state: 'attached' });
        await page.locator('#page-language').selectOption('ta');
        await page.locator('input[type=radio][value="Sms"]').check();
        await page.locator('#destination').fill(`077 ${String(1_000_000 + ((Date.now() + 7) % 1_000_000)).slice(-7)}`);
        await page.locator('#subscribe-button').click();
        await page.locator('#confirm-code').fill('000000');
        await page.locator('.code-form button').click();
        await page.locator('#confirm-code-error.shown').waitFor();
      },
    ],
  ];
  for (const [width, options] of Object.entries(WIDTHS)) {
    const context = await browser.newContext({
      ...options,
      extraHTTPHeaders: { accept: 'text/html' },
      geolocation: { latitude: 7.292, longitude: 80.632 },
      permissions: ['geolocation'],
    });
    // A target taken out of plugins/ takes its pages along.
    const needs: Record<string, string> = {
      'subscribe-sms-result': 'delivery-sms',
      'subscribe-sms-code-ta': 'delivery-sms',
      'demo-text-gateway-phone': 'delivery-sms',
      'subscribe-webhook-result': 'delivery-webhook',
    };
    for (const [name, visit] of pages.filter(([name]) => installed(needs[name] ?? 'delivery-push'))) {
      const page = await context.newPage();
      await visit(page);
      const file = path.join(folder, `${name}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      written.push(path.relative(process.cwd(), file));
      // A page with a language switch: the same state in Sinhala and in Tamil too, then back to English (the
      // choice is kept in the browser, for the pages after).
      if ((await page.locator('#page-language option').count()) > 0 && !/-(si|ta|sinhala)$/.test(name)) {
        for (const language of ['si', 'ta', 'en']) {
          await page.locator('#page-language').selectOption(language);
          await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
          await page.waitForLoadState('networkidle');
          if (language === 'en') break;
          const translated = path.join(folder, `${name}-${language}-${width}.png`);
          await page.screenshot({ path: translated, fullPage: true });
          written.push(path.relative(process.cwd(), translated));
        }
      }
      await page.close();
    }
    await context.close();
  }
  console.log(`wrote ${written.length} screenshots:\n  ${written.join('\n  ')}`);
} finally {
  await browser.close();
  await started.close();
  await Promise.all([feed.close(), push.close(), smtp.close(), sms.close()]);
  await database.drop();
}
