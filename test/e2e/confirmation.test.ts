import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationEvent } from '#plugin-api';
import { escalateDue } from '../../core/confirmation/escalation-worker.ts';
import { startTwilioGateway, type TwilioGateway } from '../../demo/sms-gateway/twilio-gateway.ts';
import { startVoiceGateway, type VoiceGateway } from '../../demo/voice-gateway/twilio-voice-gateway.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../demo/webhook-inbox/webhook-receiver.ts';
import { testClock } from '../doubles/smtp-test-app.ts';
import { consoleSession } from '../helpers/console-session.ts';
import { findChromium, launchChromium } from '../helpers/browser.ts';
import { databaseKinds, provisionDatabase, type DatabaseKind, type ProvisionedDatabase } from '../helpers/databases.ts';
import { E2E_JWT_SECRET, realPluginsDir } from '../helpers/e2e-env.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { servicesOf, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { newOutage } from '../helpers/outage-event.ts';

const PUBLIC_BASE_URL = 'https://alerts.example.org';
const chromiumPath = findChromium();
const SLOW = { timeout: 20_000, interval: 100 };
const shots = process.env.PAGE_SCREENSHOTS;
const CARER_MOBILE = '+94771234567';
const HOME_PHONE = '+94112345678';
const ADMIN = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' })}` };
/** Text to the carer 5 minutes after the alert, then a call home 10 minutes after that; the list 15 minutes after the last. */
const ESCALATION = [
  { provider: 'Sms', destination: '077 123 4567', afterMinutes: 5 },
  { provider: 'Voice', destination: '011 234 5678', afterMinutes: 10 },
];

/** The outage of the day the test's clock is on. */
const outage = (id: string) => newOutage(id, '2026-11-20');

describe.each(await databaseKinds())('confirmation and escalation on %s', (kind: DatabaseKind) => {
  let database: ProvisionedDatabase;
  let sms: TwilioGateway;
  let voice: VoiceGateway;
  let receiver: WebhookReceiver;
  let harness: TestApp;
  // Behind the database's clock, as a service clock may be: a step is due by the service's.
  const clock = testClock(new Date('2026-11-20T10:00:00.000Z'));

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    const twilio = { accountSid: 'AC0123456789abcdef', authToken: 'twilio-auth-token-0123456789abcdef', publicBaseUrl: PUBLIC_BASE_URL };
    sms = await startTwilioGateway({ ...twilio, number: '+15005550006' });
    voice = await startVoiceGateway({ ...twilio, number: '+15005550007' });
    receiver = await startWebhookReceiver();
    harness = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'delivery-webhook', 'delivery-sms', 'delivery-voice']),
      now: clock.now,
      env: {
        PublicBaseUrl: PUBLIC_BASE_URL,
        Jwt__Secret: E2E_JWT_SECRET,
        Sms__DefaultRegion: 'LK',
        Voice__DefaultRegion: 'LK',
        Webhook__AllowedHosts: '127.0.0.1',
        Webhook__EncryptionKey: 'webhook-encryption-key-0123456789abcdef',
        NotificationPipeline__Rates__Voice: '0',
        NotificationPipeline__Rates__Sms: '0',
        SubscriptionLimits__MaxPerIp: '1000',
        SubscriptionLimits__MaxPerIpPerDay: '1000',
        ...sms.env,
        ...voice.env,
      },
    });
    await harness.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(harness.app.server.address() as AddressInfo).port}`;
    sms.setServiceUrl(url);
    voice.setServiceUrl(url);
  });
  afterAll(async () => {
    await harness?.close();
    await Promise.all([sms?.close(), voice?.close(), receiver?.close()]);
    await database?.drop();
  });
  beforeEach(async () => {
    await knex()('notification_subscriptions').delete();
    sms.texts.length = 0;
    voice.calls.length = 0;
    receiver.received.length = 0;
    clock.advance(3600);
  });

  const app = () => harness.app;
  const knex = () => servicesOf(app()).database.knex;
  const escalation = () =>
    escalateDue({
      db: knex(),
      now: clock.now,
      listAfterMinutes: 15,
      installed: () => new Set(['Webhook', 'Sms', 'Voice']),
      notifyLanes: async () => {},
    });
  /** Minutes pass, the escalation runs, the lanes send what it queued. */
  const after = async (minutes: number) => {
    clock.advance(minutes * 60);
    const moved = await escalation();
    await servicesOf(app()).dispatcher.drain();
    return moved;
  };
  const create = (preferences: Record<string, unknown>, headers: Record<string, string> = ADMIN) =>
    app().inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      headers,
      payload: {
        displayName: 'Mrs Perera (oxygen)',
        feedId: 'utility.power-outages',
        preferences,
        delivery: { provider: 'Webhook', destination: receiver.hookUrl('perera') },
      },
    });
  const confirming = async () => {
    const response = await create({ confirm: true, escalation: ESCALATION });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { publicId: string; manageToken: string; preferences: Record<string, unknown> };
  };
  const alert = async (id: string) => {
    await servicesOf(app()).pipeline.processNotificationEvents([outage(id)], { awaitDelivery: true });
    await expect.poll(() => receiver.received.length).toBeGreaterThan(0);
    const body = JSON.parse(receiver.received.at(-1)!.body).data.body as string;
    return { body, token: decodeURIComponent(/\/confirm#(\S+)$/.exec(body)?.[1] ?? '') };
  };
  const state = async () => (await knex()('notification_confirmations').select('state', 'step', 'settled_via', 'settled_by'))[0];

  it('lets only an admin set confirm and escalation; a subscriber changing the rest keeps them', async () => {
    const anonymous = await create({ confirm: true }, {});
    expect(anonymous.statusCode).toBe(403);
    expect(anonymous.json().message).toMatch(/^body\/preferences\/confirm can be set only by an admin/);
    expect(await knex()('notification_subscriptions')).toHaveLength(0);

    const created = await confirming();
    expect(created.preferences).toEqual({
      confirm: true,
      escalation: [
        { provider: 'Sms', destination: CARER_MOBILE, afterMinutes: 5 },
        { provider: 'Voice', destination: HOME_PHONE, afterMinutes: 10 },
      ],
    });
    const asSubscriber = (preferences: Record<string, unknown>) =>
      app().inject({
        method: 'PATCH',
        url: `/api/notification-subscriptions/${created.publicId}`,
        headers: { 'x-subscription-token': created.manageToken },
        payload: { preferences },
      });
    const changed = await asSubscriber({ language: 'ta' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().preferences).toEqual({ ...created.preferences, language: 'ta' });
    // What the page sends back as it read it changes nothing of the admin's.
    expect((await asSubscriber({ ...created.preferences, language: 'si' })).statusCode).toBe(200);
    const refused = await asSubscriber({ confirm: false });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/^body\/preferences\/confirm /);
    expect((await asSubscriber({ escalation: [] })).json().message).toMatch(/^body\/preferences\/escalation /);
    const stored = await knex()('notification_subscriptions').where({ public_id: created.publicId }).first('preferences');
    expect(stored.preferences).toEqual({ ...created.preferences, language: 'si' });

    const asAdmin = (preferences: Record<string, unknown>) =>
      app().inject({ method: 'PATCH', url: `/api/notification-subscriptions/${created.publicId}`, headers: ADMIN, payload: { preferences } });
    for (const [preferences, field] of [
      [{ confirm: true, escalation: [{ provider: 'Fax', destination: '1', afterMinutes: 5 }] }, 'body/preferences/escalation/0/provider'],
      [{ confirm: true, escalation: [{ provider: 'Voice', destination: '+1 900 555 1234', afterMinutes: 5 }] }, 'body/preferences/escalation/0/destination'],
      [{ confirm: true, escalation: [{ provider: 'Sms', destination: CARER_MOBILE, afterMinutes: 0 }] }, 'body/preferences/escalation/0/afterMinutes'],
      [{ escalation: [{ provider: 'Sms', destination: CARER_MOBILE, afterMinutes: 5 }] }, 'body/preferences/escalation'],
    ] as const) {
      const response = await asAdmin(preferences);
      expect(response.statusCode, JSON.stringify(preferences)).toBe(400);
      expect(response.json().message).toContain(field);
    }
    expect((await knex()('notification_subscriptions').where({ public_id: created.publicId }).first('preferences')).preferences).toEqual(stored.preferences);
  });

  it('escalates an unconfirmed urgent alert step by step, each once, then lists it; an operator marks it reached (audited)', async () => {
    const subscription = await confirming();
    const { body } = await alert('PO-CONFIRM-1');
    expect(body).toMatch(/\n\nPlease confirm you got this alert: https:\/\/alerts\.example\.org\/confirm#\d+\.[\w-]{43}$/);
    expect(await state()).toMatchObject({ state: 'awaiting', step: 0 });

    expect(await after(4)).toEqual({ steps: 0, reminders: 0, listed: 0 });
    // Due now, and three instances run the escalation at once: the step goes once.
    clock.advance(60);
    const runs = await Promise.all([escalation(), escalation(), escalation()]);
    expect(runs.map((run) => run.steps).reduce((a, b) => a + b)).toBe(1);
    await servicesOf(app()).dispatcher.drain();
    expect(await escalation()).toEqual({ steps: 0, reminders: 0, listed: 0 });
    await servicesOf(app()).dispatcher.drain();
    expect(sms.textsTo(CARER_MOBILE)).toHaveLength(1);
    // The carer's text asks for YES, and carries nothing of the subscriber's own (their manage link).
    expect(sms.textsTo(CARER_MOBILE)[0]!.body).toMatch(/Kandy[\s\S]*Please confirm you got this alert: reply YES\.$/);
    expect(sms.textsTo(CARER_MOBILE)[0]!.body).not.toContain(subscription.publicId);

    expect(await after(10)).toEqual({ steps: 1, reminders: 0, listed: 0 });
    const [call] = voice.callsTo(HOME_PHONE);
    expect(call!.said.map((line) => line.text)).toEqual([
      'This is an outage alert from alerts.example.org.',
      expect.stringMatching(/^Power outage: Kandy\. /),
      'Press 1 to confirm you heard this alert.',
      'We did not hear a key. We will try again, or someone will call you.',
    ]);
    expect(call!.said.map((line) => line.text).join(' ')).not.toMatch(/https?:|reply YES/);
    expect(call!.gather).toEqual({ action: `${PUBLIC_BASE_URL}/api/voice/gather`, numDigits: 1 });
    const rows = await knex()('notification_delivery_ledger').orderBy('id').select('provider', 'destination', 'status', 'source_key');
    expect(rows).toEqual([
      { provider: 'Webhook', destination: null, status: 'delivered', source_key: 'PO-CONFIRM-1' },
      { provider: 'Sms', destination: CARER_MOBILE, status: 'delivered', source_key: 'PO-CONFIRM-1#confirm-1' },
      { provider: 'Voice', destination: HOME_PHONE, status: 'delivered', source_key: 'PO-CONFIRM-1#confirm-2' },
    ]);

    expect(await after(14)).toEqual({ steps: 0, reminders: 0, listed: 0 });
    expect(await after(1)).toEqual({ steps: 0, reminders: 0, listed: 1 });
    expect(await after(60)).toEqual({ steps: 0, reminders: 0, listed: 0 });
    const { cookie, csrf } = await consoleSession(app());
    const list = await app().inject({ url: '/console/api/not-confirmed', headers: { cookie } });
    expect(list.statusCode, list.body).toBe(200);
    const [item] = list.json().items;
    expect(item).toMatchObject({ publicId: subscription.publicId, displayName: 'Mrs Perera (oxygen)', eventType: 'NewOutage', steps: 2 });
    expect(item.title).toMatch(/Kandy/);
    const reached = () => app().inject({ method: 'POST', url: `/console/api/not-confirmed/${item.id}/reached`, headers: { cookie, 'x-csrf-token': csrf } });
    // Without the session's CSRF token (a page of another site that posts with the cookie): refused, nothing changed.
    const forged = await app().inject({ method: 'POST', url: `/console/api/not-confirmed/${item.id}/reached`, headers: { cookie } });
    expect(forged.statusCode).toBe(403);
    expect(await state()).toMatchObject({ state: 'unconfirmed' });
    expect((await reached()).json()).toEqual({ reached: true });
    expect((await reached()).statusCode).toBe(404);
    expect((await app().inject({ url: '/console/api/not-confirmed', headers: { cookie } })).json().items).toEqual([]);
    expect(await state()).toMatchObject({ state: 'reached', settled_via: 'operator', settled_by: 'token:ops' });
    const audit = (await app().inject({ url: '/console/api/audit', headers: { cookie } })).json().entries;
    expect(audit[0]).toMatchObject({ actor: 'token:ops', action: 'reached-by-phone', detail: { confirmation: item.id } });
  });

  it('an admin who takes confirm off ends the escalation: the step waiting is not sent, and the alert is never listed', async () => {
    const subscription = await confirming();
    await alert('PO-CONFIRM-OFF');
    clock.advance(5 * 60);
    expect(await escalation()).toEqual({ steps: 1, reminders: 0, listed: 0 });
    const off = await app().inject({
      method: 'PATCH',
      url: `/api/notification-subscriptions/${subscription.publicId}`,
      headers: ADMIN,
      payload: { preferences: { confirm: false } },
    });
    expect(off.statusCode, off.body).toBe(200);
    await servicesOf(app()).dispatcher.drain();
    expect(sms.texts).toHaveLength(0);
    expect(await knex()('notification_delivery_ledger').where({ provider: 'Sms' }).first('status', 'skipped_because')).toEqual({
      status: 'skipped',
      skipped_because: 'withdrawn',
    });
    expect(await state()).toMatchObject({ state: 'withdrawn' });
    expect(await after(60)).toEqual({ steps: 0, reminders: 0, listed: 0 });
    expect(voice.calls).toHaveLength(0);
  });

  it('a confirm link stops the escalation: a step already queued is not sent, and nothing more comes', async () => {
    await confirming();
    const { token } = await alert('PO-CONFIRM-2');
    clock.advance(5 * 60);
    expect(await escalation()).toEqual({ steps: 1, reminders: 0, listed: 0 });
    const confirm = (given: string) => app().inject({ method: 'POST', url: '/api/confirmations', payload: { token: given } });
    expect((await confirm(token)).json()).toEqual({ confirmed: true });
    expect((await confirm(token)).json()).toEqual({ confirmed: false });
    expect((await confirm(`${token.slice(0, -1)}x`)).statusCode).toBe(400);
    await servicesOf(app()).dispatcher.drain();
    expect(sms.texts).toHaveLength(0);
    expect(await knex()('notification_delivery_ledger').where({ provider: 'Sms' }).first('status', 'skipped_because')).toEqual({
      status: 'skipped',
      skipped_because: 'confirmed',
    });
    expect(await after(60)).toEqual({ steps: 0, reminders: 0, listed: 0 });
    expect(voice.calls).toHaveLength(0);
    expect(await state()).toMatchObject({ state: 'confirmed', settled_via: 'link' });
    // The page the link opens: a button, and nothing confirmed by opening it.
    const page = await app().inject({ url: '/confirm' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="confirm-button"');
  });

  it('YES to the text confirms; so does 1 in the call of a later alert', async () => {
    await confirming();
    await alert('PO-CONFIRM-3');
    await after(5);
    const yes = await sms.reply(CARER_MOBILE, 'Yes');
    expect(yes.answer).toBe('Thank you: we know you got the alert.');
    expect(await state()).toMatchObject({ state: 'confirmed', settled_via: 'reply' });
    expect(await after(60)).toEqual({ steps: 0, reminders: 0, listed: 0 });
    expect(voice.calls).toHaveLength(0);

    await knex()('notification_confirmations').delete();
    await alert('PO-CONFIRM-4');
    await after(5);
    await after(10);
    const [call] = voice.callsTo(HOME_PHONE);
    const pressed = await voice.press(call!.sid, '1');
    expect(pressed.said).toEqual([{ text: 'Thank you. Your confirmation is recorded.', language: 'en-GB' }]);
    expect(await state()).toMatchObject({ state: 'confirmed', settled_via: 'key' });
    expect(await after(60)).toEqual({ steps: 0, reminders: 0, listed: 0 });
  });

  it.skipIf(!chromiumPath || kind !== 'postgres')(
    'in a browser: the /confirm page confirms only when its button is pressed; the console lists what was not, and takes "Reached by phone"',
    async () => {
      const subscription = await confirming();
      const { token } = await alert('PO-CONFIRM-6');
      const serviceUrl = `http://127.0.0.1:${(harness.app.server.address() as AddressInfo).port}`;
      const browser = await launchChromium(chromiumPath!);
      try {
        for (const width of [390, 1280]) {
          const page = await browser.newPage({ viewport: { width, height: 900 } });
          const problems: string[] = [];
          page.on('pageerror', (error) => problems.push(error.message));
          await page.goto(`${serviceUrl}/confirm#${token}`);
          const button = page.getByRole('button', { name: 'Yes, I got this alert' });
          await expect.poll(() => button.isVisible(), SLOW).toBe(true);
          // Opening the link confirms nothing (a link previewer must not confirm for someone).
          expect((await state()).state).toBe(width === 390 ? 'awaiting' : 'confirmed');
          if (shots) await page.screenshot({ path: `${shots}/confirm-${width}.png`, fullPage: true });
          await button.click();
          await expect
            .poll(() => page.getByRole('status').textContent(), SLOW)
            .toBe(width === 390 ? 'Thank you: we know you got it.' : 'This alert is confirmed already: thank you.');
          expect(await page.evaluate('document.activeElement?.id')).toBe('confirm-heading');
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
          if (shots) await page.screenshot({ path: `${shots}/confirm-done-${width}.png`, fullPage: true });
          expect(problems).toEqual([]);
          await page.close();
        }

        // The person's manage page says what is asked of them.
        const manage = await browser.newPage({ viewport: { width: 390, height: 844 } });
        await manage.goto(`${serviceUrl}/manage/${subscription.publicId}#token=${subscription.manageToken}`);
        await expect
          .poll(() => manage.locator('#details').textContent(), SLOW)
          .toContain('ConfirmationEach urgent alert asks you to confirm you got it; if you do not, we try other ways, then someone calls you.');
        if (shots) await manage.screenshot({ path: `${shots}/manage-confirming-390.png`, fullPage: true });
        await manage.close();

        // A later alert nobody confirms lands in the console's list.
        await knex()('notification_confirmations').delete();
        await alert('PO-CONFIRM-7');
        await after(5);
        await after(10);
        await after(15);
        const admin = jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' });
        for (const width of [390, 1280]) {
          const page = await browser.newPage({ viewport: { width, height: 900 } });
          await page.goto(`${serviceUrl}/console#token=${encodeURIComponent(admin)}`);
          const rows = page.locator('#not-confirmed-table tbody');
          await expect.poll(() => rows.textContent(), SLOW).toMatch(/^Mrs Perera \(oxygen\) \([\w-]+\)Power outage: Kandy.*\(Power outages\)2/);
          if (shots) await page.locator('section[aria-labelledby="not-confirmed-heading"]').screenshot({ path: `${shots}/console-not-confirmed-${width}.png` });
          const wide = await page.evaluate(
            `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > ${width} + 1).map((e) => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 12).join(' | ')`,
          );
          expect(await page.evaluate('document.documentElement.scrollWidth'), String(wide)).toBeLessThanOrEqual(width);
          if (width === 1280) {
            await page.getByRole('button', { name: 'Reached by phone' }).click();
            await expect.poll(() => page.locator('#console-status').textContent(), SLOW).toMatch(/^Alert #\d+: marked as reached by phone\.$/);
            await expect.poll(() => rows.textContent(), SLOW).toBe('Everyone has confirmed.');
          }
          await page.close();
        }
        expect(await state()).toMatchObject({ state: 'reached', settled_by: 'token:ops' });
      } finally {
        await browser.close();
      }
    },
  );

  it("a later event of the outage does not replace a step waiting to go: the step is the carer's, not the subscriber's", async () => {
    await confirming();
    await alert('PO-CONFIRM-8');
    clock.advance(5 * 60);
    expect(await escalation()).toEqual({ steps: 1, reminders: 0, listed: 0 });
    // The power comes back before the step's text went: the subscriber is told; the carer's text still goes.
    const restored: NotificationEvent = {
      ...outage('PO-CONFIRM-8'),
      eventType: 'Restoration',
      sourceKey: 'PO-CONFIRM-8:restored',
      sourcePayload: { ...(outage('PO-CONFIRM-8').sourcePayload as object), timeRestored: '2026-11-20T09:15:00+05:30' },
    };
    await servicesOf(app()).pipeline.processNotificationEvents([restored], { awaitDelivery: true });
    const rows = await knex()('notification_delivery_ledger').orderBy('id').select('provider', 'status', 'source_key', 'replaces', 'urgent');
    expect(rows).toEqual([
      expect.objectContaining({ provider: 'Webhook', status: 'delivered', source_key: 'PO-CONFIRM-8' }),
      expect.objectContaining({ provider: 'Sms', source_key: 'PO-CONFIRM-8#confirm-1' }),
      expect.objectContaining({ provider: 'Webhook', status: 'delivered', source_key: 'PO-CONFIRM-8:restored', replaces: null }),
    ]);
    expect(rows[1].status).not.toBe('superseded');
    await servicesOf(app()).dispatcher.drain();
    expect(sms.textsTo(CARER_MOBILE)).toHaveLength(1);
    // Only the outage asked to be confirmed.
    expect(await knex()('notification_confirmations')).toHaveLength(1);
  });

  it("a carrier's opt-out report for the carer's number stops nothing of the subscriber's", async () => {
    const subscription = await confirming();
    await alert('PO-CONFIRM-9');
    await after(5);
    const [text] = sms.textsTo(CARER_MOBILE);
    // 21610: the carer's number replied STOP at its carrier.
    expect(await sms.report(text!.sid, 'undelivered', 21610)).toBe(200);
    const { is_active } = await knex()('notification_subscriptions').where({ public_id: subscription.publicId }).first('is_active');
    expect(is_active).toBe(true);
    // The step's report is on the step's delivery, as any other.
    expect(await knex()('notification_delivery_ledger').where({ provider: 'Sms' }).first('outcome', 'outcome_code')).toEqual({
      outcome: 'undelivered',
      outcome_code: '21610',
    });
  });

  it('asks nothing of a subscriber who does not confirm', async () => {
    const response = await create({});
    expect(response.statusCode).toBe(201);
    const { body } = await alert('PO-CONFIRM-5');
    expect(body).not.toContain('confirm');
    expect(await knex()('notification_confirmations')).toHaveLength(0);
  });
});
