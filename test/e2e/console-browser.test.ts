import { createServer } from 'node:net';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../core/app.ts';
import { startOidcProviderDouble, type OidcProviderDouble } from '../doubles/oidc-provider-double.ts';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { findChromium, launchChromium } from '../helpers/browser.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { E2E_JWT_SECRET, e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const chromiumPath = findChromium();
const SLOW = { timeout: 20_000, interval: 100 };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };
const MONITOR = 'utility-power-outages.monitor';

/** A port free now, so PublicBaseUrl (the provider's redirect URI) can name it before the service listens. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The operator console in Chromium, signing in through a real OpenID
 * Connect provider on loopback (oidc-provider): alice holds the console
 * role, bob does not. Screenshots of each state at 390 and 1280 px go to
 * CONSOLE_SCREENSHOTS when it is set.
 */
describe.skipIf(!chromiumPath)('the operator console in a browser, signed in through OpenID Connect', () => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let oidc: OidcProviderDouble;
  let started: TestApp;
  let baseUrl = '';
  let browser: Browser;
  let context: BrowserContext | undefined;
  let problems: string[] = [];
  const shots = process.env.CONSOLE_SCREENSHOTS;

  async function open(path: string, options: BrowserContextOptions = DESKTOP): Promise<Page> {
    await context?.close();
    context = await browser.newContext(options);
    const page = await context.newPage();
    // Ours only: the provider's development login pages load fonts from the internet this machine cannot reach.
    page.on('console', (message) => {
      if (message.type() === 'error' && message.location().url.startsWith(baseUrl) && !/status of 40[13]/.test(message.text()))
        problems.push(`${message.location().url}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${baseUrl}${path}`);
    return page;
  }
  /** Each state at 390 and 1280 px, and in Sinhala (switched there and back), the page's own size restored after. */
  const shoot = async (page: Page, name: string) => {
    if (!shots) return;
    const own = page.viewportSize()!;
    for (const language of ['en', 'si']) {
      if (language !== 'en') await inLanguage(page, language);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `${shots}/console-${name}${language === 'en' ? '' : `-${language}`}-${width}.png`, fullPage: true });
      }
    }
    await inLanguage(page, 'en');
    await page.setViewportSize(own);
  };
  /** The console switched to a language, once it has written itself again in it. */
  const inLanguage = async (page: Page, language: string) => {
    if ((await page.locator('#page-language option').count()) === 0) return;
    await page.locator('#page-language').selectOption(language);
    await expect.poll(() => page.evaluate('document.documentElement.lang'), { timeout: 10_000 }).toBe(language);
    await page.waitForLoadState('networkidle');
  };
  const widths = (page: Page) => page.evaluate('document.documentElement.scrollWidth') as Promise<number>;

  /** Signs in at the provider's login and consent pages as `user`; back on the console after. */
  async function signInAs(page: Page, user: string) {
    await page.getByRole('link', { name: 'Sign in with your organisation' }).click();
    await page.locator('input[name="login"]').fill(user);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    [feed, push] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble()]);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    oidc = await startOidcProviderDouble(`${baseUrl}/console/callback`);
    started = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push']),
      env: e2eEnv(feed, push, {
        ...oidc.env,
        PublicBaseUrl: baseUrl,
        PowerOutages__Enabled: 'true',
        PowerOutages__PollingIntervalSeconds: '3600',
        NotificationPipeline__HoldAboveSubscriptions: '2',
      }),
    });
    await started.app.listen({ host: '127.0.0.1', port });
    await servicesOf(started.app).workers.runNow(MONITOR);
    for (const area of ['Kandy', 'Kandy', 'Galle']) {
      await started.app.inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: { displayName: area, feedId: 'utility.power-outages', filter: { locationKeywords: [area] }, delivery: { provider: 'Push' } },
      });
    }
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
    await Promise.all([feed?.close(), push?.close(), oidc?.close()]);
    await database?.drop();
  });

  it('a user without the console role is refused and sees nothing of it', async () => {
    const page = await open('/console', PHONE);
    await shoot(page, 'sign-in');
    await signInAs(page, 'bob');
    await expect.poll(() => page.locator('h1').textContent(), SLOW).toBe('Not allowed');
    expect(await page.locator('main').textContent()).toContain('does not hold the console role (notification-admin)');
    await shoot(page, 'refused');
    expect(await widths(page)).toBeLessThanOrEqual(390);
    // Back at the console: still the sign-in, and the API answers nothing.
    await page.goto(`${baseUrl}/console`);
    await expect.poll(() => page.locator('#denied').textContent(), SLOW).toContain('bob does not hold the console role');
    expect(await page.locator('#signed-in').isHidden()).toBe(true);
    expect(await page.evaluate(() => fetch('/console/api/overview').then((r) => r.status))).toBe(401);
  });

  it('alice signs in (PKCE, an HttpOnly SameSite=Lax cookie), sees the overview, previews then sends an announcement, and releases a held event', async () => {
    const page = await open('/console', DESKTOP);
    await signInAs(page, 'alice');
    await expect.poll(() => page.locator('#actor').textContent(), SLOW).toBe('oidc:alice');
    const [cookie] = (await context!.cookies()).filter((c) => c.name === 'np_console');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/console', secure: false });
    await expect.poll(() => page.locator('#feeds-table tbody').textContent(), SLOW).toContain('Power outages');
    expect(await page.locator('#subscriptions-table tbody').textContent()).toContain('Power outagesPush notification4');

    // An event over the threshold is held; the console shows it with its count.
    feed.setPowerOutages([{ id: 'PO-ALL', feeder: 'F1', areas: ['Kandy', 'Galle'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null }]);
    await servicesOf(started.app).workers.runNow(MONITOR, { force: true });
    await page.reload();
    await expect.poll(() => page.locator('#held-list').textContent(), SLOW).toContain('would reach at least 4 subscriptions (Push notification: 4,');
    // Each channel's lane, in people's words.
    expect(await page.locator('#lanes-table tbody').textContent()).toContain('Push notification');
    expect(await page.locator('#lanes-table tbody').textContent()).toContain('Sending');
    await shoot(page, 'overview');

    await page.getByLabel('Title').fill('Storm warning');
    await page.getByLabel('Message').fill('Expect outages tonight.');
    await page.getByLabel('Areas').fill('Kandy');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect
      .poll(() => page.locator('#preview-words').textContent(), SLOW)
      .toBe('Will notify 3 subscriptions (Push notification: 3, no estimate yet). Nothing is sent until you confirm.');
    expect(push.allMessages().filter((m) => m.title === 'Storm warning')).toHaveLength(0);
    await shoot(page, 'preview');
    await page.getByRole('button', { name: 'Confirm and send' }).click();
    // Said beside the form that sent it, in its own live region.
    await expect.poll(() => page.locator('section[aria-labelledby="announce-heading"] [role="status"]').textContent(), SLOW).toMatch(/^Sent: 3 matched/);
    expect(push.allMessages().filter((m) => m.title === 'Storm warning')).toHaveLength(3);
    // Events by the feed's words for their kind, times on a 24-hour clock whatever the browser's locale.
    await expect.poll(() => page.locator('#events-list').textContent(), SLOW).toContain('Power outages · Announcements ·');
    expect(await page.locator('#events-list').textContent()).not.toContain('ManualAnnouncement');
    expect(await page.locator('#events-list').textContent()).not.toMatch(/\b[AP]M\b/);

    // Releasing asks once more, beside the button: "Keep it held" sends nothing and gives the button back.
    const heldId = (await page.locator('#held-list button').first().textContent())!.replace(/\D/g, '');
    await page.getByRole('button', { name: `Release #${heldId}` }).click();
    expect(await page.locator('#held-list').textContent()).toContain(`Send event #${heldId} to at least 4 subscriptions now?`);
    await shoot(page, 'release-confirm');
    await page.getByRole('button', { name: 'Keep it held' }).click();
    expect(await page.evaluate('document.activeElement.textContent')).toBe(`Release #${heldId}`);
    expect(push.allMessages().filter((m) => m.title === 'Power outage: Kandy, Galle')).toHaveLength(0);
    await page.getByRole('button', { name: `Release #${heldId}` }).click();
    await page.getByRole('button', { name: 'Yes, send it now' }).click();
    await expect.poll(() => page.locator('#console-status').textContent(), SLOW).toContain(`Event #${heldId} released`);
    await expect.poll(() => push.allMessages().filter((m) => m.title === 'Power outage: Kandy, Galle').length, SLOW).toBe(4);
    // The chart of the last hour (uPlot, from this service) draws what went out, and says it in words too.
    await page.reload();
    await expect.poll(() => page.locator('#chart-summary').textContent(), SLOW).toMatch(/^\d+ delivered in the last hour: Push notification \d+\.$/);
    expect(await page.locator('#lanes-chart canvas').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#audit-table tbody').textContent(), SLOW).toContain('release held event');
    // Whom it was about, in the feed's own words for its field.
    const auditText = (await page.locator('#audit-table tbody').textContent())!;
    expect(auditText.slice(auditText.indexOf('announcement sent'), auditText.indexOf('announcement sent') + 100)).toMatch(
      /^announcement sent \([^)]*Areas Kandy/,
    );
    await shoot(page, 'after');
  });

  it('signs in with an admin token too, on a phone, and nothing scrolls sideways', async () => {
    const page = await open('/console', PHONE);
    await page.getByLabel('Admin token').fill(jwtFor(E2E_JWT_SECRET, { sub: 'night-shift', role: 'admin' }));
    await page.getByRole('button', { name: 'Sign in with the token' }).click();
    await expect.poll(() => page.locator('#actor').textContent(), SLOW).toBe('token:night-shift');
    await expect.poll(() => page.locator('#audit-table tbody tr').count(), SLOW).toBeGreaterThan(2);
    expect(await widths(page)).toBeLessThanOrEqual(390);
    await shoot(page, 'token-overview');
    // A change without the session's CSRF token (a forged form, another site) is refused.
    const forged = await page.evaluate(() => fetch('/console/api/events/1/discard', { method: 'POST' }).then((r) => r.status));
    expect(forged).toBe(403);
    problems = problems.filter((problem) => !problem.includes('403'));
  });

  it('"Find a subscriber" shows why each of the latest events reached them or not, and audits the look', async () => {
    const shop = await started.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'Beach shop', feedId: 'utility.power-outages', filter: { locationKeywords: ['Unawatuna'] }, delivery: { provider: 'Push' } },
    });
    const publicId = shop.json().publicId as string;
    // The shop and the system subscription: under the hold threshold, so it goes at once.
    feed.setPowerOutages([
      { id: 'PO-FORT', feeder: 'F2', areas: ['Unawatuna'], timeOff: '2026-11-22T09:00:00+05:30', timeRestored: null },
      { id: 'PO-PERA', feeder: 'F3', areas: ['Peradeniya'], timeOff: '2026-11-22T09:05:00+05:30', timeRestored: null },
    ]);
    await servicesOf(started.app).workers.runNow(MONITOR, { force: true });
    const page = await open('/console', DESKTOP);
    await page.getByLabel('Admin token').fill(jwtFor(E2E_JWT_SECRET, { sub: 'help-desk', role: 'admin' }));
    await page.getByRole('button', { name: 'Sign in with the token' }).click();
    await expect.poll(() => page.locator('#actor').textContent(), SLOW).toBe('token:help-desk');
    await page.getByLabel('Public id, email address, phone number or push topic').fill(publicId);
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await expect.poll(() => page.locator('#found-list').textContent(), SLOW).toContain('Beach shop');
    await page.getByRole('button', { name: 'Why did they get what they got?' }).click();
    await expect.poll(() => page.locator('#trace-heading').textContent(), SLOW).toBe('Beach shop: Power outages by Push notification');
    const rows = page.locator('#trace-table tbody tr');
    const rowOf = async (key: string) => (await rows.filter({ hasText: key }).first().textContent()) ?? '';
    await expect.poll(() => rowOf('PO-FORT'), SLOW).toMatch(/Power outage · PO-FORT.*YesSentdelivered; attempt 1: delivered/);
    expect(await rowOf('PO-PERA')).toMatch(/NoNot in their areas or places—$/);
    // Focus went to the trace, so a screen reader reads it next.
    expect(await page.evaluate('document.activeElement?.id')).toBe('trace-heading');
    await shoot(page, 'trace');
    await page.reload();
    await expect.poll(() => page.locator('#audit-table tbody').textContent(), SLOW).toContain(`subscriber-trace (publicId ${publicId})`);

    // The power comes back; the shop says it is still off, through the link in its push message: "Still out?" counts it.
    feed.setPowerOutages([
      { id: 'PO-FORT', feeder: 'F2', areas: ['Unawatuna'], timeOff: '2026-11-22T09:00:00+05:30', timeRestored: '2026-11-22T11:00:00+05:30' },
    ]);
    await servicesOf(started.app).workers.runNow(MONITOR, { force: true });
    const { destination } = await servicesOf(started.app).database.knex('notification_subscriptions').where({ public_id: publicId }).first('destination');
    let restored: string | undefined;
    await expect
      .poll(() => (restored = push.allMessages().find((m) => m.topic === destination && m.title === 'Power restored: Unawatuna')?.message), SLOW)
      .toBeDefined();
    const token = /\/still-out#(\S+)$/.exec(restored!)![1];
    const reported = await started.app.inject({ method: 'POST', url: '/api/still-out', payload: { token } });
    expect(reported.json()).toEqual({ recorded: true, areas: 'Unawatuna' });
    await page.reload();
    await expect.poll(() => page.locator('#still-out-table tbody').textContent(), SLOW).toMatch(/^PO-FORT \(Power outages\)1Unawatuna/);
    await shoot(page, 'still-out');
  });

  it('a sign-in link (what the demo prints) signs in, and the token leaves the address bar', async () => {
    const token = jwtFor(E2E_JWT_SECRET, { sub: 'demo-operator', role: 'admin' });
    const page = await open(`/console#token=${encodeURIComponent(token)}`, DESKTOP);
    await expect.poll(() => page.locator('#actor').textContent(), SLOW).toBe('token:demo-operator');
    expect(page.url()).toBe(`${baseUrl}/console`);
  });
});
