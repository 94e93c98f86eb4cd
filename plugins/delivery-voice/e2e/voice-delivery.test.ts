import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseKinds, provisionDatabase, type DatabaseKind, type ProvisionedDatabase } from '../../../test/helpers/databases.ts';
import { E2E_JWT_SECRET, realPluginsDir } from '../../../test/helpers/e2e-env.ts';
import { jwtFor } from '../../../test/helpers/pipeline-plugins.ts';
import { servicesOf, startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { testClock } from '../../../test/doubles/smtp-test-app.ts';
import { startVoiceGateway, type VoiceGateway } from '../../../demo/voice-gateway/twilio-voice-gateway.ts';
import { findChromium, launchChromium } from '../../../test/helpers/browser.ts';
import { newOutage } from '../../../test/helpers/outage-event.ts';

const chromiumPath = findChromium();

const PUBLIC_BASE_URL = 'https://alerts.example.org';
const AUTH_TOKEN = 'twilio-voice-token-0123456789abcdef';
const LANDLINE = '+94112345678';

describe.each(await databaseKinds())('delivery-voice end to end on %s', (kind: DatabaseKind) => {
  let database: ProvisionedDatabase;
  let gateway: VoiceGateway;
  let harness: TestApp;
  const clock = testClock(new Date('2026-11-26T10:00:00.000Z'));

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    gateway = await startVoiceGateway({ accountSid: 'AC0123456789abcdef', authToken: AUTH_TOKEN, number: '+15005550006', publicBaseUrl: PUBLIC_BASE_URL });
    harness = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'delivery-voice']),
      now: clock.now,
      env: {
        PublicBaseUrl: PUBLIC_BASE_URL,
        Voice__DefaultRegion: 'LK',
        Jwt__Secret: E2E_JWT_SECRET,
        VoiceOutbox__IntervalSeconds: '3600',
        NotificationPipeline__Rates__Voice: '0',
        SubscriptionLimits__MaxPerIp: '1000',
        SubscriptionLimits__MaxPerIpPerDay: '1000',
        ...gateway.env,
      },
    });
    await harness.app.listen({ port: 0, host: '127.0.0.1' });
    gateway.setServiceUrl(`http://127.0.0.1:${(harness.app.server.address() as AddressInfo).port}`);
  });
  afterAll(async () => {
    await harness?.close();
    await gateway?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await knex()('notification_subscriptions').where({ provider: 'Voice' }).delete();
    gateway.calls.length = 0;
    clock.advance(24 * 3600);
  });

  const app = () => harness.app;
  const knex = () => servicesOf(app()).database.knex;
  const isActive = async (publicId: string) => (await knex()('notification_subscriptions').where({ public_id: publicId }).first('is_active')).is_active;
  const created = async (destination: string, language?: string) => {
    const response = await app().inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: {
        displayName: 'Home',
        feedId: 'utility.power-outages',
        ...(language ? { preferences: { language } } : {}),
        delivery: { provider: 'Voice', destination },
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { publicId: string; manageToken: string; isActive: boolean; delivery: { destination: string } };
  };
  const callTo = async (number: string) => {
    await expect.poll(() => gateway.callsTo(number).length, { timeout: 10_000 }).toBeGreaterThan(0);
    return gateway.callsTo(number).at(-1)!;
  };
  const confirmed = async (destination: string, language?: string) => {
    const subscription = await created(destination, language);
    const call = await callTo(subscription.delivery.destination);
    expect((await gateway.press(call.sid, '1')).status).toBe(200);
    gateway.calls.length = 0;
    return subscription;
  };

  it('takes a national landline, starts inactive, and calls with a code read twice; the code activates it, and is stored only hashed', async () => {
    const subscription = await created('011 234 5678');
    expect(subscription).toMatchObject({ isActive: false, delivery: { destination: LANDLINE } });
    const call = await callTo(LANDLINE);
    expect(call.from).toBe('+15005550006');
    expect(call.statusCallback).toBe(`${PUBLIC_BASE_URL}/api/voice/status`);
    expect(call.gather).toEqual({ action: `${PUBLIC_BASE_URL}/api/voice/gather`, numDigits: 1 });
    const code = /is ((?:\d, ){5}\d)\. Again, the code is \1\./.exec(call.said[0]!.text)![1]!.replaceAll(', ', '');
    expect(call.said.map((line) => line.language)).toEqual(['en-GB', 'en-GB', 'en-GB']);
    expect(call.said[1]!.text).toBe('Or press 1 now to confirm this number.');
    expect(JSON.stringify(await knex()('delivery_voice_codes').select())).not.toContain(code);

    const verify = (given: string) =>
      app().inject({
        method: 'POST',
        url: `/api/notification-subscriptions/${subscription.publicId}/verify-call-code`,
        headers: { 'x-subscription-token': subscription.manageToken },
        payload: { code: given },
      });
    const wrong = await verify(code === '000000' ? '111111' : '000000');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/body\/code is wrong \(4 tries left\)/);
    expect(await isActive(subscription.publicId)).toBe(false);
    const right = await verify(code);
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json()).toEqual({ publicId: subscription.publicId, isActive: true });
    expect(gateway.unauthorized).toBe(0);
    expect(gateway.badTwiml).toBe(0);
  });

  it('activates the number when 1 is pressed in the verification call, in Tamil; a forged key changes nothing', async () => {
    const subscription = await created('+94 77 123 4567', 'ta');
    const call = await callTo('+94771234567');
    expect(call.said[0]).toMatchObject({ language: 'ta-IN' });
    expect(call.said[0]!.text).toContain('குறியீடு');
    const forged = await gateway.press(call.sid, '1', { signature: 'bm90IGEgc2lnbmF0dXJl' });
    expect(forged.status).toBe(403);
    expect(await isActive(subscription.publicId)).toBe(false);
    const other = await gateway.press(call.sid, '2');
    expect(other.status).toBe(200);
    expect(await isActive(subscription.publicId)).toBe(false);
    const pressed = await gateway.press(call.sid, '1');
    expect(pressed.said).toEqual([{ text: 'நன்றி. இந்த எண்ணுக்கான எச்சரிக்கைகள் இயக்கப்பட்டன.', language: 'ta-IN' }]);
    expect(await isActive(subscription.publicId)).toBe(true);
  });

  it('reads an alert in Tamil to a Tamil subscriber, and in English to a Sinhala one (no Sinhala voice), without links', async () => {
    await confirmed('+94771234567', 'ta');
    await confirmed('+94112345678', 'si');
    await servicesOf(app()).pipeline.processNotificationEvents([newOutage('PO-VOICE-1')], { awaitDelivery: true });
    const tamil = await callTo('+94771234567');
    expect(tamil.said.map((line) => line.language)).toEqual(['ta-IN', 'ta-IN', 'ta-IN']);
    expect(tamil.said[1]!.text).toMatch(/Kandy/);
    const sinhala = await callTo('+94112345678');
    expect(sinhala.said.map((line) => line.language)).toEqual(['en-GB', 'en-GB', 'en-GB']);
    expect(sinhala.said[0]!.text).toBe('This is an outage alert from alerts.example.org.');
    expect(sinhala.said[1]!.text).toMatch(/^Power outage: Kandy\. /);
    for (const call of [tamil, sinhala]) expect(call.said.map((line) => line.text).join(' ')).not.toMatch(/https?:/);
    const rows = await knex()('notification_delivery_ledger').where({ provider: 'Voice', source_key: 'PO-VOICE-1' });
    expect(rows.map((row) => row.status)).toEqual(['delivered', 'delivered']);
  });

  it('shows an unanswered call on its delivery as not heard; a forged status changes nothing', async () => {
    await confirmed(LANDLINE);
    await servicesOf(app()).pipeline.processNotificationEvents([newOutage('PO-VOICE-2')], { awaitDelivery: true });
    const call = await callTo(LANDLINE);
    expect(await gateway.status(call.sid, 'no-answer', { signature: 'bm90IGEgc2lnbmF0dXJl' })).toBe(403);
    expect(await knex()('delivery_voice_calls').where({ sid: call.sid }).first('status')).toEqual({ status: 'queued' });
    expect(await gateway.status(call.sid, 'no-answer')).toBe(200);
    const admin = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' })}` };
    const view = await app().inject({ url: '/api/admin/deliveries?limit=5', headers: admin });
    const delivery = view.json().items.find((item: { sourceKey: string }) => item.sourceKey === 'PO-VOICE-2');
    expect(delivery).toMatchObject({ provider: 'Voice', status: 'delivered', outcome: 'undelivered', outcomeCode: 'no-answer' });
  });

  it('refuses a premium-rate number and a non-number, naming the field, and stores nothing', async () => {
    for (const destination of ['+1 900 555 1234', 'call me']) {
      const response = await app().inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: { displayName: 'Home', feedId: 'utility.power-outages', delivery: { provider: 'Voice', destination } },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^body\/delivery\/destination must be a phone number/);
    }
    expect(await knex()('notification_subscriptions').where({ provider: 'Voice' })).toHaveLength(0);
    expect(gateway.calls).toHaveLength(0);
  });

  it('retries a call after a gateway 500, and never names the auth token in logs', async () => {
    await confirmed(LANDLINE);
    gateway.script({ status: 500 });
    await servicesOf(app()).pipeline.processNotificationEvents([newOutage('PO-VOICE-3')], { awaitDelivery: true });
    const ledger = () => knex()('notification_delivery_ledger').where({ provider: 'Voice', source_key: 'PO-VOICE-3' });
    expect((await ledger())[0]).toMatchObject({ status: 'retrying', last_error: 'voice gateway 500 (50000)' });
    await knex()('notification_delivery_ledger').where({ status: 'retrying' }).update({ next_attempt_at: knex().fn.now() });
    await servicesOf(app()).dispatcher.drain();
    expect((await ledger()).map((row) => row.status)).toEqual(['delivered']);
    expect(gateway.callsTo(LANDLINE)).toHaveLength(1);
    expect(harness.logs.join('')).not.toContain(AUTH_TOKEN);
  });

  it('says which languages it reads; the manage page of a Sinhala subscriber says the calls come in English', async () => {
    const providers = await app().inject({ url: '/api/notification-providers' });
    expect(providers.json().find((p: { provider: string }) => p.provider === 'Voice').languages).toEqual(['en', 'ta']);
    if (!chromiumPath || kind !== 'postgres') return;
    const subscription = await created(LANDLINE, 'si');
    const browser = await launchChromium(chromiumPath);
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await page.goto(
        `http://127.0.0.1:${(harness.app.server.address() as AddressInfo).port}/manage/${subscription.publicId}#token=${subscription.manageToken}`,
      );
      const details = page.locator('#details');
      await expect.poll(() => details.textContent(), { timeout: 20_000 }).toContain('read in English, since there is no voice for this language');
      expect(await details.textContent()).toMatch(/Language of the alerts(සිංහල|Sinhala)[^:]*: read in English/);
    } finally {
      await browser.close();
    }
  });
});
