// Takes the picture (docs/subscribe-page.png) of the subscribe and manage pages: the real service with the test
// doubles, driven in headless Chromium at a phone's size; three screens side by side in one PNG.
// `npm run screenshot:subscribe [-- <output.png>]` (default docs/subscribe-page.png).
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../core/paths.ts';
import { startPushServerDouble } from '../doubles/push-server-double.ts';
import { startSmtpDouble } from '../doubles/smtp-double.ts';
import { startUtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { findChromium, launchChromium } from '../helpers/browser.ts';
import { preferredKind, provisionDatabase, tmpRoot } from '../helpers/databases.ts';
import { e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { ifInstalled } from '../helpers/shipped-plugins.ts';
import { startTestApp } from '../helpers/test-app.ts';
import { startTwilioGateway } from '../../demo/sms-gateway/twilio-gateway.ts';
import webpush from 'web-push';

const output = path.resolve(process.argv[2] ?? path.join(projectRoot, 'docs', 'subscribe-page.png'));
const PHONE = { width: 412, height: 915 };
const GAP = 16;

const chromiumPath = findChromium();
if (!chromiumPath) process.exit(1);
mkdirSync(tmpRoot(), { recursive: true });
const database = await provisionDatabase(await preferredKind());
const [feed, push, smtp] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble(), startSmtpDouble()]);
const sms = await startTwilioGateway({
  accountSid: 'ACshot',
  authToken: 'shot-token-0123456789',
  number: '+15005550006',
  publicBaseUrl: 'http://127.0.0.1:5000',
});
const vapid = webpush.generateVAPIDKeys();
// Every shipped way of delivery, each set up, as a utility would offer them.
const started = await startTestApp({
  database,
  workers: false,
  pluginsDir: realPluginsDir([
    'utility-power-outages',
    'utility-scheduled-outages',
    'delivery-push',
    'delivery-email',
    ...ifInstalled('delivery-webpush', 'delivery-sms', 'delivery-webhook'),
  ]),
  env: e2eEnv(feed, push, {
    ...smtp.env,
    ...sms.env,
    Sms__DefaultRegion: 'LK',
    WebPush__VapidPublicKey: vapid.publicKey,
    WebPush__VapidPrivateKey: vapid.privateKey,
    Logging__Level: 'warn',
  }),
});
const browser = await launchChromium(chromiumPath);
try {
  const baseUrl = await started.app.listen({ host: '127.0.0.1', port: 0 });
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const shot = async (where: Page) => (await where.screenshot()).toString('base64');
  await page.goto(`${baseUrl}/subscribe`);
  await page.getByLabel('Feed', { exact: true }).selectOption({ label: 'Power outages' });
  await page.getByLabel('Areas').fill('Kandy, Peradeniya');
  await page.getByLabel('Feeders').fill('F12');
  await page.getByRole('checkbox', { name: 'Power outage' }).check();
  await page.getByRole('checkbox', { name: 'Power restored', exact: true }).check();
  await page.getByRole('radio', { name: 'Push notification' }).tap();
  // The ways of delivery, the alerts' language and the button in view.
  await page.locator('#deliver-by').evaluate((element) => element.scrollIntoView());
  const form = await shot(page);
  await page.getByRole('button', { name: 'Subscribe' }).tap();
  const qr = page.getByRole('img', { name: 'QR code of the subscribe link' });
  await qr.waitFor();
  await page.waitForFunction("document.querySelector('img.qr')?.naturalWidth > 0");
  await page.evaluate('window.scrollTo(0, 0)');
  const result = await shot(page);
  await page.getByRole('link', { name: 'Manage this subscription' }).tap();
  await page.getByRole('img', { name: 'QR code of the subscribe link' }).waitFor();
  const manage = await shot(page);

  const sheet = await browser.newPage({ viewport: { width: 3 * PHONE.width + 4 * GAP, height: PHONE.height + 2 * GAP } });
  const images = [form, result, manage].map((png) => `<img src="data:image/png;base64,${png}" style="box-shadow:0 2px 8px rgb(0 0 0 / .25)">`);
  await sheet.setContent(`<body style="margin:0;padding:${GAP}px;display:flex;gap:${GAP}px;background:#d9dde3">${images.join('')}</body>`);
  mkdirSync(path.dirname(output), { recursive: true });
  await sheet.screenshot({ path: output });
  console.log(`wrote ${path.relative(process.cwd(), output)}`);
} finally {
  await browser.close();
  await started.close();
  await Promise.all([feed.close(), push.close(), smtp.close(), sms.close()]);
  await database.drop();
  // This script's scratch folder (the copied plugins): a test run removes its own in its teardown.
  rmSync(tmpRoot(), { recursive: true, force: true });
}
