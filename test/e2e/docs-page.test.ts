import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, launchChromium } from '../helpers/browser.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { startTestApp, type TestApp, EVERY_INSTALLED_PLUGIN } from '../helpers/test-app.ts';

const chromiumPath = findChromium();
const SLOW = { timeout: 20_000 };

describe.skipIf(!chromiumPath)('the API docs page in Chromium', { timeout: 90_000 }, () => {
  let database: ProvisionedDatabase;
  let started: TestApp;
  let browser: Browser;
  let baseUrl: string;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    started = await startTestApp({ pluginsDir: EVERY_INSTALLED_PLUGIN, database, workers: false });
    baseUrl = await started.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium(chromiumPath!);
  });
  afterAll(async () => {
    await browser?.close();
    await started?.close();
    await database?.drop();
  });

  it('renders every tag and operation from the service alone, with no CSP violation', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && problems.push(`console: ${message.text()}`)));
    page.on('pageerror', (error) => void problems.push(`page error: ${error.message}`));
    page.on(
      'request',
      (request) => void (!request.url().startsWith(`${baseUrl}/`) && !request.url().startsWith('data:') && problems.push(`request to ${request.url()}`)),
    );
    await page.goto(`${baseUrl}/docs`);
    await expect.poll(() => page.getByText('Create a subscription').count(), SLOW).toBeGreaterThan(0);
    for (const tag of ['subscriptions', 'feeds', 'email links', 'admin', 'health', 'pages']) {
      expect(await page.locator('.opblock-tag', { hasText: tag }).count(), tag).toBeGreaterThan(0);
    }
    expect(await page.getByText('Feed health', { exact: true }).count()).toBeGreaterThan(0);
    // The security schemes: the "Authorize" button offers the bearer JWT and the manage token.
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    await expect.poll(() => page.getByText('X-Subscription-Token').count(), SLOW).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
