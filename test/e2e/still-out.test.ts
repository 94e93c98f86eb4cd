import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { servicesOf } from '../../core/app.ts';
import type { NotificationEvent } from '../../core/plugin-api/index.ts';
import { findChromium, launchChromium } from '../helpers/browser.ts';
import { databaseKinds, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { pipelinePluginsDir } from '../helpers/pipeline-plugins.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const POWER = 'utility.power-outages';
const chromiumPath = findChromium();
const SLOW = { timeout: 20_000, interval: 100 };
const outage = (id: string, eventType: string): NotificationEvent => ({
  feedId: POWER,
  eventType,
  sourceKey: id,
  itemKey: id,
  fields: { feeder: 'F4', areas: 'Matale, Ukuwela' },
  sourcePayload: {
    id,
    feeder: 'F4',
    areas: ['Matale', 'Ukuwela'],
    timeOff: '2026-11-22T08:15:00+05:30',
    timeRestored: eventType === 'NewOutage' ? null : '2026-11-22T11:00:00+05:30',
  },
});

describe.each(await databaseKinds())('"still out?" on %s', (kind) => {
  let database: ProvisionedDatabase;
  let started: TestApp;
  let baseUrl = '';
  const knex = () => servicesOf(started.app).database.knex;
  const send = (event: NotificationEvent) => servicesOf(started.app).pipeline.processNotificationEvents([event], { awaitDelivery: true });
  const report = (token: string) => started.app.inject({ method: 'POST', url: '/api/still-out', payload: { token } });
  /** The token of the still-out link in the last message to the subscription. */
  const linkIn = async (publicId: string) => {
    const delivered = await knex()('fixture_push_deliveries').where({ subscription_public_id: publicId }).orderBy('id', 'desc').first('body', 'event_type');
    return { eventType: delivered.event_type as string, body: delivered.body as string, token: /\/still-out#(\S+)$/.exec(delivered.body)?.[1] };
  };

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    started = await startTestApp({ database, pluginsDir: pipelinePluginsDir(), workers: false, env: { PublicBaseUrl: 'https://alerts.example.org' } });
    await started.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(started.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await knex()('still_out_reports').delete();
  });

  async function subscribe(language?: string): Promise<string> {
    const response = await started.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: {
        displayName: 'Matale',
        feedId: POWER,
        filter: { locationKeywords: ['Matale'] },
        delivery: { provider: 'Push' },
        ...(language ? { preferences: { language } } : {}),
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().publicId;
  }

  it("a restoration carries the link in the subscriber's language; the link reports once, however often it is used", async () => {
    const publicId = await subscribe();
    const tamil = await subscribe('ta');
    await send(outage('PO-S1', 'NewOutage'));
    // Only the item's end asks.
    expect((await linkIn(publicId)).token).toBeUndefined();
    await send(outage('PO-S1', 'Restoration'));
    const told = await linkIn(publicId);
    expect(told.eventType).toBe('Restoration');
    expect(told.body).toMatch(/\n\nStill without power\? Tell us: https:\/\/alerts\.example\.org\/still-out#\S+$/);
    expect((await linkIn(tamil)).body).toContain('இன்னும் மின்சாரம் இல்லையா? எங்களிடம் சொல்லுங்கள்: https://alerts.example.org/still-out#');

    const feedState = await knex()('power_outages').select();
    const first = await report(told.token!);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ recorded: true, areas: 'Matale, Ukuwela' });
    const again = await report(told.token!);
    expect(again.json()).toEqual({ recorded: false, areas: 'Matale, Ukuwela' });
    const rows = await knex()('still_out_reports').select('feed_id', 'item_key', 'areas', 'via');
    expect(rows).toEqual([{ feed_id: POWER, item_key: 'PO-S1', areas: 'Matale, Ukuwela', via: 'link' }]);
    // The feed's own state is never changed by a report.
    expect(await knex()('power_outages').select()).toEqual(feedState);
    const audited = await knex()('console_audit_log').where({ action: 'still-out report' }).orderBy('id', 'desc').first('actor');
    expect(audited.actor).toBe(`subscriber:${publicId}`);
  });

  it('refuses a token it did not make, or of a message that asks nothing, with a 400 naming the field and nothing stored', async () => {
    const publicId = await subscribe();
    await send(outage('PO-S2', 'NewOutage'));
    await send(outage('PO-S2', 'Restoration'));
    const { token } = await linkIn(publicId);
    const [id, mac] = token!.split('.');
    const newOutageRow = await knex()('notification_delivery_ledger').where({ source_key: 'PO-S2', event_type: 'NewOutage' }).first('id');
    const { stillOutToken } = await import('../../core/still-out/index.ts');
    const { key } = await knex()('service_keys').where({ name: 'still-out' }).first('key');
    for (const [bad, status, words] of [
      [`${Number(id) + 1}.${mac}`, 400, 'not a link of this service'],
      [`${id}.${mac!.slice(1)}`, 400, 'not a link of this service'],
      ['x'.repeat(100), 400, 'not a link of this service'],
      [stillOutToken(key, Number(newOutageRow.id)), 400, 'asks for no report'],
      [stillOutToken(key, 987654321), 404, 'no longer kept'],
    ] as const) {
      const response = await report(bad);
      expect(response.statusCode, bad).toBe(status);
      expect(response.json().message).toMatch(new RegExp(`^body/token: .*${words}`));
    }
    for (const body of [{}, { token: '' }, { token: 1 }, { token: 'a', extra: true }]) {
      const response = await started.app.inject({ method: 'POST', url: '/api/still-out', payload: body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(Number((await knex()('still_out_reports').count({ n: '*' }))[0]!.n)).toBe(0);
  });

  it.skipIf(!chromiumPath || kind !== 'postgres')('the page reports only when the button is pressed, and says so to a screen reader', async () => {
    const publicId = await subscribe();
    await send(outage('PO-S3', 'NewOutage'));
    await send(outage('PO-S3', 'Restoration'));
    const { token } = await linkIn(publicId);
    const browser: Browser = await launchChromium(chromiumPath!);
    try {
      for (const viewport of [
        { width: 390, height: 844 },
        { width: 1280, height: 900 },
      ]) {
        const page = await browser.newPage({ viewport });
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(error.message));
        await page.goto(`${baseUrl}/still-out#${token}`);
        await expect.poll(() => page.getByRole('button', { name: 'It is not over here: report it' }).isVisible(), SLOW).toBe(true);
        // Opening the link reports nothing.
        expect(Number((await knex()('still_out_reports').count({ n: '*' }))[0]!.n)).toBe(viewport.width === 390 ? 0 : 1);
        if (process.env.PAGE_SCREENSHOTS) await page.screenshot({ path: `${process.env.PAGE_SCREENSHOTS}/still-out-${viewport.width}.png`, fullPage: true });
        await page.getByRole('button', { name: 'It is not over here: report it' }).click();
        await expect
          .poll(() => page.getByRole('status').textContent(), SLOW)
          .toBe(viewport.width === 390 ? 'Thank you: your report is passed on. (Matale, Ukuwela)' : 'Your report is in already: thank you. (Matale, Ukuwela)');
        expect(await page.evaluate('document.activeElement?.id')).toBe('still-out-heading');
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
        if (process.env.PAGE_SCREENSHOTS)
          await page.screenshot({ path: `${process.env.PAGE_SCREENSHOTS}/still-out-done-${viewport.width}.png`, fullPage: true });
        expect(problems).toEqual([]);
        await page.close();
      }
      const page = await browser.newPage();
      await page.goto(`${baseUrl}/still-out`);
      await expect.poll(() => page.getByRole('alert').textContent(), SLOW).toBe('This page is opened from the link in an alert. Open that link again.');
      expect(await page.locator('#still-out-form').isHidden()).toBe(true);
    } finally {
      await browser.close();
    }
    expect(Number((await knex()('still_out_reports').count({ n: '*' }))[0]!.n)).toBe(1);
  });
});
