import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServerDouble, type ChatServerDouble } from '../doubles/chat-server-double.ts';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { findChromium, launchChromium } from '../helpers/browser.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, E2E_JWT_SECRET } from '../helpers/e2e-env.ts';
import { parseMetrics, sampleValue } from '../helpers/metrics-text.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { servicesOf, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { pluginsWithThirdParty } from '../helpers/third-party.ts';

const MONITOR = 'utility-water-supply.monitor';
const ROOM = '#kandy-ops';
const SLOW = { timeout: 20_000, interval: 100 };
const chromiumPath = findChromium();

const notice = (id: string, kind: 'interruption' | 'boil-water', until: string | null = null) => ({
  id,
  kind,
  areas: ['Kandy'],
  since: '2026-11-25T08:00:00+05:30',
  until,
  reason: 'Main pipe repair',
  extra: 'dropped',
});

/**
 * Contracts §14, as an operator meets it: a feed and a delivery target
 * written by someone else against the plugin API alone
 * (test/fixtures/third-party), dropped into plugins/ beside the shipped
 * ones with no other change. The service lists them, takes a subscription
 * through them, delivers exactly once across a restart, counts them in
 * /metrics and in feed health, and offers them on the subscribe page.
 */
describe("a third party's feed and target, dropped in", { timeout: 120_000 }, () => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let chat: ChatServerDouble;
  let pluginsDir: string;
  let started: TestApp;

  const start = () =>
    startTestApp({
      database,
      pluginsDir,
      env: e2eEnv(feed, push, {
        Chat__BaseUrl: chat.baseUrl,
        Chat__Token: chat.token,
        WaterSupply__Enabled: 'true',
        // Its own source (a water board's API is not the utility's): here the same double, with its key.
        WaterSupply__BaseUrl: feed.baseUrl,
        WaterSupply__ApiKey: feed.apiKey,
        WaterSupply__PollingIntervalSeconds: '3600',
        WaterSupply__TimeZone: 'Asia/Colombo',
        NotificationPipeline__SystemSubscriptions__WaterSupply__FeedId: 'utility.water-supply',
        NotificationPipeline__SystemSubscriptions__WaterSupply__PushTopic: 'utility-water-supply',
      }),
    });
  const poll = async () => {
    await servicesOf(started.app).workers.runNow(MONITOR, { force: true });
    await servicesOf(started.app).dispatcher.settle();
  };
  const admin = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' })}` };

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    [feed, push, chat] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble(), startChatServerDouble()]);
    feed.setAnswer('/water-supply', { notices: [] });
    pluginsDir = pluginsWithThirdParty();
    started = await start();
  });
  afterAll(async () => {
    await started?.close();
    await Promise.all([feed?.close(), push?.close(), chat?.close()]);
    await database?.drop();
  });

  it('the catalog and the providers list them, in their own words', async () => {
    const feeds = (await started.app.inject({ url: '/api/notification-feeds' })).json();
    expect(feeds.find((entry: { id: string }) => entry.id === 'utility.water-supply')).toMatchObject({
      displayName: 'Water supply',
      eventTypes: ['InterruptionStarted', 'SupplyRestored', 'BoilWaterIssued', 'BoilWaterLifted'],
      eventTypeDetails: expect.arrayContaining([
        { type: 'BoilWaterIssued', label: 'Boil-water notice', hint: 'When tap water must be boiled before drinking.' },
      ]),
      urgentEventTypes: ['InterruptionStarted', 'BoilWaterIssued'],
      timeZone: 'Asia/Colombo',
      filterFields: [
        {
          id: 'zone',
          property: 'fields.zone',
          label: 'Supply zones',
          hint: 'Comma-separated zone codes, as on your water bill. Leave empty for every zone.',
          example: 'Z4, Z12',
          match: 'equals',
        },
        {
          id: 'locationKeywords',
          property: 'locationKeywords',
          label: 'Places',
          hint: 'Comma-separated. Part of a name is enough.',
          example: '',
          match: 'contains',
        },
      ],
      filterableFields: ['Area'],
    });
    const providers = (await started.app.inject({ url: '/api/notification-providers' })).json();
    expect(providers.find((entry: { provider: string }) => entry.provider === 'Chat')).toMatchObject({
      displayName: 'Chat room',
      destination: { required: true, label: 'Chat room', description: 'A chat room name, such as #kandy-ops.' },
      available: true,
      unavailableReason: null,
    });
  });

  it('delivers a subscription through both exactly once, across polls and a restart; an issued-again notice is news again', async () => {
    const created = await started.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: {
        displayName: 'Kandy water',
        feedId: 'utility.water-supply',
        filter: { eventTypes: ['BoilWaterIssued', 'BoilWaterLifted'] },
        delivery: { provider: 'Chat', destination: ' #Kandy-Ops ' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ isActive: true, delivery: { provider: 'Chat', destination: ROOM } });
    const refused = await started.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'x', feedId: 'utility.water-supply', delivery: { provider: 'Chat', destination: 'kandy ops' } },
    });
    expect([refused.statusCode, refused.json().message]).toEqual([400, 'body/delivery/destination must be a chat room name such as #kandy-ops']);

    feed.setAnswer('/water-supply', { notices: [notice('B1', 'boil-water'), notice('W1', 'interruption')] });
    await poll();
    await poll();
    expect(chat.textsOf(ROOM)).toEqual([
      expect.stringMatching(/^Boil water before drinking: Kandy\nAreas: Kandy\nSince: .*08:00.*\nReason: Main pipe repair$/),
    ]);
    expect(
      push
        .messages('utility-water-supply')
        .map((message) => message.title)
        .sort(),
    ).toEqual(['Boil water before drinking: Kandy', 'Water supply interrupted: Kandy']);

    // A new instance on the same database: nothing is sent again.
    await started.close();
    started = await start();
    await poll();
    expect(chat.textsOf(ROOM)).toHaveLength(1);

    // Lifted, then issued again: two more messages, the second a new occurrence of the same notice.
    feed.setAnswer('/water-supply', { notices: [notice('B1', 'boil-water', '2026-11-25T15:00:00+05:30'), notice('W1', 'interruption')] });
    await poll();
    feed.setAnswer('/water-supply', { notices: [notice('B1', 'boil-water'), notice('W1', 'interruption')] });
    await poll();
    await poll();
    expect(chat.textsOf(ROOM).map((text) => text.split('\n')[0])).toEqual([
      'Boil water before drinking: Kandy',
      'Boil-water notice lifted: Kandy',
      'Boil water before drinking: Kandy',
    ]);
    expect(new Set(chat.messages.map((message) => message.idempotencyKey)).size).toBe(3);
  });

  it("filters by the feed's own field, as the feed matches it; a field it does not declare is a 400 naming it", async () => {
    const subscribe = (filter: object, room: string) =>
      started.app.inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: { displayName: room, feedId: 'utility.water-supply', filter, delivery: { provider: 'Chat', destination: room } },
      });
    expect((await subscribe({ fields: { zone: [' z4 '] } }, '#zone-4')).statusCode).toBe(201);
    const route = await subscribe({ fields: { route: ['12'] } }, '#routes');
    expect([route.statusCode, route.json().message]).toEqual([
      400,
      'body/filter/fields/route: utility.water-supply cannot be filtered by route (its filter fields are fields.zone, locationKeywords)',
    ]);
    const feeders = await subscribe({ feeders: ['F12'] }, '#feeders');
    expect([feeders.statusCode, feeders.json().message]).toEqual([
      400,
      'body/filter/feeders: utility.water-supply cannot be filtered by feeders (its filter fields are fields.zone, locationKeywords)',
    ]);
    const badKey = await subscribe({ fields: { 'zone\nX': ['Z4'] } }, '#bad');
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json().message).toMatch(/^body\/filter\/fields/);

    const zoned = (id: string, zone: string) => ({ ...notice(id, 'interruption'), zone });
    feed.setAnswer('/water-supply', { notices: [zoned('Z-A', 'Z4'), zoned('Z-B', 'Z40'), zoned('Z-C', 'z4')] });
    await poll();
    // Equals: Z4 and z4, never Z40.
    expect(chat.textsOf('#zone-4')).toHaveLength(2);
  });

  it('/metrics and feed health count them like the shipped ones', async () => {
    const metrics = parseMetrics((await started.app.inject({ url: '/metrics' })).body);
    const sample = (name: string, labels: Record<string, string>) => sampleValue(metrics, name, labels) ?? 0;
    expect(sample('notification_feed_polls_total', { feed: 'utility.water-supply', outcome: 'changed' })).toBeGreaterThan(0);
    expect(sample('notification_deliveries_total', { provider: 'Chat', outcome: 'delivered' })).toBeGreaterThan(0);
    expect(sample('notification_feed_items_rejected_total', { feed: 'utility.water-supply' })).toBe(0);

    const health = (await started.app.inject({ url: '/api/admin/feeds', headers: admin })).json();
    expect(health.find((entry: { id: string }) => entry.id === 'utility.water-supply')).toMatchObject({
      displayName: 'Water supply',
      enabled: true,
      stale: false,
    });
  });

  describe.skipIf(!chromiumPath)('on the subscribe page', () => {
    let browser: Browser;
    beforeAll(async () => void (browser = await launchChromium(chromiumPath!)));
    afterAll(async () => browser?.close());

    it("offers the feed and the chat room, asks for the room in the target's words, and subscribes", async () => {
      const baseUrl = await started.app.listen({ host: '127.0.0.1', port: 0 });
      const page = await (await browser.newContext()).newPage();
      await page.goto(`${baseUrl}/subscribe`);
      await expect.poll(() => page.getByLabel('Feed', { exact: true }).locator('option').allTextContents(), SLOW).toContain('Water supply');
      await page.getByLabel('Feed', { exact: true }).selectOption({ label: 'Water supply' });
      await page.getByRole('group', { name: 'Notify me about' }).getByRole('checkbox', { name: 'Boil-water notice', exact: true }).check();
      // Its filter fields in its own words: a zone, not a feeder.
      const zones = page.getByRole('textbox', { name: 'Supply zones' });
      expect(await page.locator('#field-zone-hint').innerText()).toBe(
        'Comma-separated zone codes, as on your water bill. Leave empty for every zone. For example: Z4, Z12',
      );
      expect(await page.getByRole('textbox', { name: 'Feeders' }).count()).toBe(0);
      await zones.fill('Z4, Z12');
      await page.getByRole('radio', { name: 'Chat room' }).check();
      const room = page.getByRole('textbox', { name: 'Chat room' });
      expect(await room.getAttribute('placeholder')).toBe('#kandy-ops');
      expect(await page.locator('#destination-hint').textContent()).toBe('The room the alerts are posted to, starting with #.');
      await room.fill('#galle-ops');
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 2 }).textContent(), SLOW).toBe('You are subscribed');
      expect(await page.locator('#result').innerText()).toContain('by Chat room at #galle-ops');
      const manage = (await page.getByRole('link', { name: 'Manage this subscription' }).getAttribute('href'))!;
      await page.goto(`${baseUrl}${manage}`);
      await expect.poll(() => page.locator('#details').innerText(), SLOW).toMatch(/Delivered by\s+Chat room to #galle-ops/);
      expect(await page.locator('#details').innerText()).toMatch(/Supply zones\s+Z4, Z12/);
      expect(await page.locator('#details').innerText()).toMatch(/Places\s+Any/);
    });
  });
});
