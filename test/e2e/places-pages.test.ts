import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { servicesOf } from '../../core/app.ts';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { findChromium, launchChromium } from '../helpers/browser.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const chromiumPath = findChromium();
const MONITOR = 'utility-power-outages.monitor';
/** Waits for what a busy machine may take a while to show; none of these is a timing assertion. */
const SLOW = { timeout: 20_000, interval: 100 };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
const HOME = { latitude: 7.292, longitude: 80.632 };
// A block of Kandy (about 1.1 km across) and, apart from it, a block of Peradeniya.
const KANDY = {
  type: 'Polygon',
  coordinates: [
    [
      [80.63, 7.29],
      [80.64, 7.29],
      [80.64, 7.3],
      [80.63, 7.3],
      [80.63, 7.29],
    ],
  ],
};
const PERADENIYA = {
  type: 'Polygon',
  coordinates: [
    [
      [80.59, 7.26],
      [80.6, 7.26],
      [80.6, 7.27],
      [80.59, 7.27],
      [80.59, 7.26],
    ],
  ],
};
// An area whose name is markup: the map and the list show it as text.
const MARKED = {
  type: 'Polygon',
  coordinates: [
    [
      [80.6, 7.31],
      [80.61, 7.31],
      [80.61, 7.32],
      [80.6, 7.32],
      [80.6, 7.31],
    ],
  ],
};
const MARKUP = '<img src=x>Katugastota';
const outage = (id: string, areas: string[], geometry: object | null) => ({
  id,
  feeder: 'F12',
  areas,
  timeOff: '2026-11-22T08:15:00+05:30',
  timeRestored: null,
  cause: 'Fallen line',
  customersAffected: 1200,
  ...(geometry ? { geometry } : {}),
});

/** A tile server (one grey 256 px tile for every address) that counts what it is asked. */
async function startTileServer() {
  const png = new PNG({ width: 256, height: 256 });
  png.data.fill(230);
  const tile = PNG.sync.write(png);
  let asked = 0;
  const server = http.createServer((req, res) => {
    asked += /^\/\d+\/\d+\/\d+\.png$/.test(req.url ?? '') ? 1 : 0;
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(tile);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, asked: () => asked, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * The pages' places in Chromium against the real service: the public map
 * (/outages) on tiles and without, "Where?" on the subscribe page by the
 * browser's location, by an address and by the keyboard, and the places of
 * a subscription on its manage page.
 */
describe.skipIf(!chromiumPath)('places on the pages, in Chromium', { timeout: 90_000 }, () => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let tiles: Awaited<ReturnType<typeof startTileServer>>;
  let geocoder: http.Server;
  let started: TestApp;
  let plainApp: TestApp;
  let baseUrl: string;
  let plainUrl: string;
  let browser: Browser;
  let context: BrowserContext;
  let problems: string[];

  const knex = () => servicesOf(started.app).database.knex;

  async function openPage(url: string, options: BrowserContextOptions = {}): Promise<Page> {
    context = await browser.newContext(options);
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text()))
        problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => void problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      const address = request.url();
      if (![`${baseUrl}/`, `${plainUrl}/`, `${tiles.origin}/`, 'blob:', 'data:'].some((allowed) => address.startsWith(allowed)))
        problems.push(`request to ${address}`);
    });
    await page.goto(url);
    return page;
  }

  async function choosePowerOutages(page: Page) {
    await page.getByLabel('Feed', { exact: true }).selectOption({ label: 'Power outages' });
    await page.getByRole('group', { name: /^Where\?/ }).waitFor();
  }

  async function subscribeByPush(page: Page): Promise<{ topic: string; manage: string }> {
    await page.getByRole('radio', { name: 'Push notification' }).check();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const link = page.getByRole('link', { name: 'Open in the ntfy app' });
    await link.waitFor(SLOW);
    return {
      topic: (await link.getAttribute('href'))!.split('/').at(-1)!,
      manage: (await page.getByRole('link', { name: 'Manage this subscription' }).getAttribute('href'))!,
    };
  }

  const placesOf = async (topic: string) => (await knex()('notification_subscriptions').where({ destination: topic }).first('filter_json')).filter_json.places;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    [feed, push, tiles] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble(), startTileServer()]);
    geocoder = http.createServer((req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams.get('q') ?? '';
      const known = /temple/i.test(q) ? [{ display_name: 'Temple of the Tooth, Kandy, Sri Lanka', lat: '7.2936', lon: '80.6413' }] : [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(known));
    });
    await new Promise<void>((resolve) => geocoder.listen(0, '127.0.0.1', resolve));
    const env = {
      PowerOutages__Enabled: 'true',
      PowerOutages__PollingIntervalSeconds: '3600',
      PowerOutages__TimeZone: 'Asia/Colombo',
      Map__Center: '7.2906,80.6337',
      Map__Zoom: '13',
    };
    started = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push']),
      env: e2eEnv(feed, push, {
        ...env,
        Map__TileUrl: `${tiles.origin}/{z}/{x}/{y}.png`,
        Map__Attribution: 'Tiles <b>by</b> the test',
        Geocoder__BaseUrl: `http://127.0.0.1:${(geocoder.address() as AddressInfo).port}`,
        Geocoder__RequestsPerSecond: '100',
      }),
    });
    baseUrl = await started.app.listen({ host: '127.0.0.1', port: 0 });
    // The same feed and database, without tiles or a geocoder: the map on a plain background.
    plainApp = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push']),
      env: e2eEnv(feed, push, env),
      workers: false,
    });
    plainUrl = await plainApp.app.listen({ host: '127.0.0.1', port: 0 });
    feed.setPowerOutages([
      outage('PO-K', ['Kandy'], KANDY),
      outage('PO-P', ['Peradeniya'], PERADENIYA),
      outage('PO-M', [MARKUP], MARKED),
      outage('PO-G', ['Gampola'], null),
    ]);
    await servicesOf(started.app).workers.runNow(MONITOR, { force: true });
    await servicesOf(started.app).dispatcher.settle();
    browser = await launchChromium(chromiumPath!);
  });
  beforeEach(() => void (problems = []));
  afterEach(async () => {
    await context?.close();
    expect(problems).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await plainApp?.close();
    await started?.close();
    await Promise.all([feed?.close(), push?.close(), tiles?.close(), new Promise((resolve) => geocoder?.close(resolve))]);
    await database?.drop();
  });

  it.each([
    ['a phone', PHONE],
    ['a desktop', DESKTOP],
  ])('/outages on %s: the shapes on the tiles, and the same outages in words under the map', async (_name, options) => {
    const page = await openPage(`${baseUrl}/outages`, options);
    const list = page.locator('#outages-list > li');
    await expect.poll(() => list.count(), SLOW).toBe(3);
    const words = (await list.allInnerTexts()).sort();
    expect(words[0]).toMatch(/^<img src=x>Katugastota Power outages\n/);
    expect(words[1]).toMatch(/^Kandy Power outages\nSince: .*22.*\nExpected back: no estimate yet\nCustomers affected: 1,200$/);
    expect(words[2]).toMatch(/^Peradeniya Power outages\n/);
    // One drawn shape per outage with a shape (Gampola has none: it is not on the map, nor in its list).
    await expect.poll(() => page.locator('#outages-map path.leaflet-interactive').count(), SLOW).toBe(3);
    await expect.poll(() => tiles.asked(), SLOW).toBeGreaterThan(0);
    // The attribution is the operator's text, shown as text.
    expect(await page.locator('.leaflet-control-attribution').innerText()).toContain('Tiles <b>by</b> the test');
    expect(await page.locator('.leaflet-control-attribution b').count()).toBe(0);
    // The map frames the shapes: both lie inside the map's box.
    const box = (await page.locator('#outages-map').boundingBox())!;
    for (const shape of await page.locator('#outages-map path.leaflet-interactive').all()) {
      const drawn = (await shape.boundingBox())!;
      expect(drawn.x).toBeGreaterThanOrEqual(box.x - 1);
      expect(drawn.x + drawn.width).toBeLessThanOrEqual(box.x + box.width + 1);
    }
    expect(box.width).toBeLessThanOrEqual(options.viewport!.width);
  });

  it('/outages without tiles: the shapes on a plain background, each named on the map', async () => {
    const page = await openPage(`${plainUrl}/outages`, PHONE);
    await expect.poll(() => page.locator('#outages-map .map-label').allInnerTexts(), SLOW).toEqual(expect.arrayContaining(['Kandy', 'Peradeniya', MARKUP]));
    expect(await page.locator('#outages-map img').count()).toBe(0);
    expect(await page.locator('#outages-map').getAttribute('class')).toContain('map-plain');
    expect(await page.locator('.leaflet-tile').count()).toBe(0);
  });

  it("Where? by the browser's location: the place is stored, and an outage with a shape around it reaches the topic", async () => {
    const page = await openPage(`${baseUrl}/subscribe`, { ...PHONE, geolocation: HOME, permissions: ['geolocation'] });
    await choosePowerOutages(page);
    await page.getByRole('button', { name: 'Use my location' }).click();
    await expect
      .poll(() => page.locator('#where-status').innerText(), SLOW)
      .toBe('Chosen: within 100 m of 7.29200, 80.63200. Add it, or choose another point.');
    await page.getByLabel('Distance around it').selectOption({ label: '250 m' });
    await page.getByLabel('What to call it').fill('Home');
    await page.getByRole('button', { name: 'Add this place' }).click();
    expect(await page.locator('#where-list').innerText()).toContain('Home: within 250 m of 7.29200, 80.63200');
    const { topic } = await subscribeByPush(page);
    expect(await placesOf(topic)).toEqual([{ name: 'Home', lat: 7.292, lon: 80.632, radiusMeters: 250 }]);

    feed.setPowerOutages([
      outage('PO-K', ['Kandy'], KANDY),
      outage('PO-P', ['Peradeniya'], PERADENIYA),
      outage('PO-M', [MARKUP], MARKED),
      outage('PO-G', ['Gampola'], null),
      outage('PO-K2', ['Kandy North'], KANDY),
    ]);
    await servicesOf(started.app).workers.runNow(MONITOR, { force: true });
    await servicesOf(started.app).dispatcher.settle();
    expect(push.messages(topic).map((message) => message.title)).toEqual(['Power outage: Kandy North']);
  });

  it('Where? when the browser may not tell: says so, and the person taps the map instead', async () => {
    const page = await openPage(`${baseUrl}/subscribe`, DESKTOP);
    await choosePowerOutages(page);
    await page.getByRole('button', { name: 'Use my location' }).click();
    await expect.poll(() => page.locator('#where-status').innerText(), SLOW).toMatch(/^The browser did not say where you are/);
    const map = page.locator('#where-map');
    const box = (await map.boundingBox())!;
    await map.click({ position: { x: box.width / 2, y: box.height / 2 } });
    await expect.poll(() => page.locator('#where-status').innerText(), SLOW).toMatch(/^Chosen: within 100 m of 7\.2\d+, 80\.63\d+\./);
    // A point chosen and not added is still taken when the person subscribes.
    const { topic } = await subscribeByPush(page);
    const [place] = await placesOf(topic);
    expect(place).toMatchObject({ radiusMeters: 100 });
    expect(Math.abs(place.lat - 7.2906)).toBeLessThan(0.01);
    expect(Math.abs(place.lon - 80.6337)).toBeLessThan(0.01);
  });

  it("Where? by an address, and by the keyboard alone (the map's centre with Enter)", async () => {
    const page = await openPage(`${baseUrl}/subscribe`, DESKTOP);
    await choosePowerOutages(page);
    await page.getByLabel('Address').fill('temple of the tooth');
    await page.getByLabel('Address').press('Enter');
    await page.getByRole('button', { name: 'Temple of the Tooth, Kandy, Sri Lanka' }).click();
    await page.getByRole('button', { name: 'Add this place' }).click();
    await page.getByLabel('Address').fill('nowhere road');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => page.locator('#where-status').innerText(), SLOW).toMatch(/^No place of that name was found/);
    await page.locator('#where-map').focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#where-status').innerText(), SLOW).toMatch(/^Chosen: /);
    await page.getByRole('button', { name: 'Add this place' }).click();
    const { topic } = await subscribeByPush(page);
    const places = await placesOf(topic);
    expect(places).toHaveLength(2);
    expect(places[0]).toEqual({ lat: 7.2936, lon: 80.6413, radiusMeters: 100 });
  });

  it('the manage page shows the places on a map and in words, and changes them', async () => {
    const page = await openPage(`${baseUrl}/subscribe`, { ...PHONE, geolocation: HOME, permissions: ['geolocation'] });
    await choosePowerOutages(page);
    await page.getByRole('button', { name: 'Use my location' }).click();
    await page.getByLabel('What to call it').fill('Home');
    await page.getByRole('button', { name: 'Add this place' }).click();
    const { topic, manage } = await subscribeByPush(page);
    await page.goto(`${baseUrl}${manage}`);
    await expect.poll(() => page.locator('#details').innerText(), SLOW).toMatch(/Places\s+Home: within 100 m of 7\.29200, 80\.63200/);
    await expect.poll(() => page.locator('#places-map path.leaflet-interactive').count(), SLOW).toBe(2); // the circle and its centre
    await page.getByRole('button', { name: 'Change' }).click();
    await page.getByRole('button', { name: 'Remove: Home' }).click();
    await page.getByLabel('Address').fill('temple');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: 'Temple of the Tooth, Kandy, Sri Lanka' }).click();
    await page.getByLabel('What to call it').fill('Work');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.locator('#details').innerText(), SLOW).toMatch(/Places\s+Work: within 100 m of 7\.29360, 80\.64130/);
    expect(await placesOf(topic)).toEqual([{ name: 'Work', lat: 7.2936, lon: 80.6413, radiusMeters: 100 }]);
  });
});
