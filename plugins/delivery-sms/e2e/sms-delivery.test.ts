import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationEvent } from '#plugin-api';
import { databaseKinds, provisionDatabase, type DatabaseKind, type ProvisionedDatabase } from '../../../test/helpers/databases.ts';
import { E2E_JWT_SECRET, realPluginsDir } from '../../../test/helpers/e2e-env.ts';
import { parseMetrics } from '../../../test/helpers/metrics-text.ts';
import { jwtFor } from '../../../test/helpers/pipeline-plugins.ts';
import { servicesOf, startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { testClock } from '../../../test/doubles/smtp-test-app.ts';
import { startTwilioGateway, type TwilioGateway } from '../../../demo/sms-gateway/twilio-gateway.ts';
import { twilioSignature } from '#plugin-api';

const PUBLIC_BASE_URL = 'https://alerts.example.org';
const AUTH_TOKEN = 'twilio-auth-token-0123456789abcdef';
const PHONE = '+94771234567';

const outage = (id: string, areas = ['Kandy']): NotificationEvent => ({
  feedId: 'utility.power-outages',
  eventType: 'NewOutage',
  sourceKey: id,
  itemKey: id,
  fields: { feeder: 'F12', areas: areas.join(', ') },
  sourcePayload: { id, feeder: 'F12', areas, timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null, cause: 'Fallen line' },
});

describe.each(await databaseKinds())('delivery-sms end to end on %s', (kind: DatabaseKind) => {
  let database: ProvisionedDatabase;
  let gateway: TwilioGateway;
  let harness: TestApp;
  const clock = testClock(new Date('2026-11-26T10:00:00.000Z'));

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    gateway = await startTwilioGateway({ accountSid: 'AC0123456789abcdef', authToken: AUTH_TOKEN, number: '+15005550006', publicBaseUrl: PUBLIC_BASE_URL });
    harness = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-sms']),
      now: clock.now,
      env: {
        PublicBaseUrl: PUBLIC_BASE_URL,
        Sms__DefaultRegion: 'LK',
        Jwt__Secret: E2E_JWT_SECRET,
        SmsOutbox__IntervalSeconds: '3600',
        SmsOutbox__RetryBaseSeconds: '1',
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
    await knex()('notification_subscriptions').where({ provider: 'Sms' }).delete();
    // A STOP outlives the number's subscriptions: each test starts with a number that never said it.
    await knex()('delivery_sms_opt_outs').delete();
    gateway.texts.length = 0;
    // A new day on the service's clock: each test starts with the number's daily verification texts unused.
    clock.advance(24 * 3600);
  });

  const app = () => harness.app;
  const knex = () => servicesOf(app()).database.knex;
  const state = async (publicId: string) => knex()('notification_subscriptions').where({ public_id: publicId }).first('is_active', 'pending_verification');
  const subscribe = async (destination: string, filter?: Record<string, string[]>) => {
    const response = await app().inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'Home', feedId: 'utility.power-outages', ...(filter ? { filter } : {}), delivery: { provider: 'Sms', destination } },
    });
    return response;
  };
  const created = async (destination = '077 123 4567', filter?: Record<string, string[]>) => {
    const response = await subscribe(destination, filter);
    expect(response.statusCode).toBe(201);
    return response.json() as { publicId: string; manageToken: string; isActive: boolean; delivery: { destination: string } };
  };
  const codeTextTo = async (number: string) => {
    await expect.poll(() => gateway.textsTo(number).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const text = gateway.textsTo(number).at(-1)!;
    return /\b(\d{6})\b/.exec(text.body)![1]!;
  };
  const verifyCode = (publicId: string, manageToken: string, code: string) =>
    app().inject({
      method: 'POST',
      url: `/api/notification-subscriptions/${publicId}/verify-code`,
      headers: { 'x-subscription-token': manageToken },
      payload: { code },
    });

  it('reads a national number in Sms__DefaultRegion, starts inactive, texts a code from the outbox; the code activates it', async () => {
    const subscription = await created('077 123 4567');
    expect(subscription.delivery.destination).toBe(PHONE);
    expect(subscription.isActive).toBe(false);
    const code = await codeTextTo(PHONE);
    expect(gateway.textsTo(PHONE)[0]!.body).toMatch(/reply YES/i);
    // The code is stored hashed: no row holds it readable.
    expect(JSON.stringify(await knex()('delivery_sms_codes').select())).not.toContain(code);
    expect(JSON.stringify(await knex()('delivery_sms_outbox').select())).not.toContain(code);

    const wrong = await verifyCode(subscription.publicId, subscription.manageToken, code === '000000' ? '111111' : '000000');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/body\/code is wrong \(4 tries left\)/);
    expect(await state(subscription.publicId)).toEqual({ is_active: false, pending_verification: true });

    const noToken = await app().inject({ method: 'POST', url: `/api/notification-subscriptions/${subscription.publicId}/verify-code`, payload: { code } });
    expect(noToken.statusCode).toBe(401);
    const right = await verifyCode(subscription.publicId, subscription.manageToken, code);
    expect(right.statusCode).toBe(200);
    expect(right.json()).toEqual({ publicId: subscription.publicId, isActive: true });
    expect(await state(subscription.publicId)).toEqual({ is_active: true, pending_verification: false });
  });

  it('a subscriber who reads Tamil gets the verification text in Tamil, its code working as in English', async () => {
    const response = await app().inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: {
        displayName: 'Home',
        feedId: 'utility.power-outages',
        preferences: { language: 'ta' },
        delivery: { provider: 'Sms', destination: '077 123 4567' },
      },
    });
    expect(response.statusCode).toBe(201);
    const subscription = response.json() as { publicId: string; manageToken: string };
    const code = await codeTextTo(PHONE);
    expect(gateway.textsTo(PHONE)[0]!.body).toMatch(/[\u0B80-\u0BFF]/);
    expect((await verifyCode(subscription.publicId, subscription.manageToken, code)).statusCode).toBe(200);
    // Replies to the number come in its language too; a number the service does not know gets English.
    const help = (await gateway.reply(PHONE, 'HELP')).answer;
    expect(help).toMatch(/[\u0B80-\u0BFF]/);
    expect(help).toContain(PUBLIC_BASE_URL);
    expect((await gateway.reply(PHONE, 'status')).answer).toMatch(/[\u0B80-\u0BFF]/);
    expect((await gateway.reply('+94779999999', 'HELP')).answer).toMatch(/^Outage alerts from /);
  });

  it('refuses an impossible number with a 400 naming delivery.destination, and stores nothing', async () => {
    const before = await knex()('notification_subscriptions').count({ n: '*' }).first();
    const response = await subscribe('+94 00 000 0000');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/delivery\/destination/);
    expect(await knex()('notification_subscriptions').count({ n: '*' }).first()).toEqual(before);
  });

  it('refuses a landline or a premium-rate number (toll fraud): a 400 naming delivery.destination, no code texted, nothing stored', async () => {
    const before = await knex()('notification_subscriptions').count({ n: '*' }).first();
    for (const [number, kind] of [
      ['+94 11 234 5678', 'fixed line'],
      ['+1 900 555 1234', 'premium rate'],
      ['+44 909 012 3456', 'premium rate'],
    ]) {
      const response = await subscribe(number!);
      expect(response.statusCode, number).toBe(400);
      expect(response.json().message).toBe(`body/delivery/destination must be a mobile phone number: this one is a ${kind} number, which cannot take texts`);
    }
    expect(await knex()('notification_subscriptions').count({ n: '*' }).first()).toEqual(before);
    expect(gateway.texts).toHaveLength(0);
  });

  it('texts a number at most SubscriptionLimits__MaxVerificationsPerAddressPerDay verification codes a day, however it is written', async () => {
    for (const written of ['+94771234567', '077 123 4567', '+94 77 123 4567']) await created(written);
    const fourth = await subscribe('0771234567');
    expect(fourth.statusCode).toBe(429);
    // Said for a phone as well as a mailbox.
    expect(fourth.json().message).toMatch(/^at most 3 verification messages per destination \(an email address or a phone number\) per day/);
    await expect.poll(() => gateway.textsTo(PHONE).length, { timeout: 10_000 }).toBe(3);
  });

  it('a code expires, and five wrong tries spend it', async () => {
    const first = await created('0771234568');
    const code = await codeTextTo('+94771234568');
    for (let i = 0; i < 5; i++) expect((await verifyCode(first.publicId, first.manageToken, code === '999999' ? '888888' : '999999')).statusCode).toBe(400);
    const spent = await verifyCode(first.publicId, first.manageToken, code);
    expect(spent.statusCode).toBe(400);
    expect(spent.json().message).toMatch(/5 wrong tries/);

    const second = await created('0771234569');
    const secondCode = await codeTextTo('+94771234569');
    clock.advance(31 * 60);
    const expired = await verifyCode(second.publicId, second.manageToken, secondCode);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toMatch(/expired/);
    expect(await state(second.publicId)).toEqual({ is_active: false, pending_verification: true });
  });

  it('a YES reply confirms the number; keywords are case-insensitive and trimmed; STOP stops every subscription of the number, START starts them', async () => {
    const one = await created(PHONE);
    const two = await created(PHONE, { locationKeywords: ['Galle'] });
    await expect.poll(() => gateway.textsTo(PHONE).length, { timeout: 10_000 }).toBe(2);

    const yes = await gateway.reply(PHONE, '  yes ');
    expect(yes.status).toBe(200);
    expect(yes.answer).toMatch(/Alerts are on for this number \(2 subscriptions\)/);
    expect(await state(one.publicId)).toEqual({ is_active: true, pending_verification: false });
    expect(await state(two.publicId)).toEqual({ is_active: true, pending_verification: false });

    for (const stop of ['STOP', 'stopall', ' Unsubscribe', 'cancel', 'End', 'quit ']) {
      const answer = await gateway.reply(PHONE, stop);
      expect(answer.answer).toMatch(/no more alert texts/);
      expect(await state(one.publicId)).toEqual({ is_active: false, pending_verification: false });
      expect(await state(two.publicId)).toEqual({ is_active: false, pending_verification: false });
      expect((await gateway.reply(PHONE, ['START', 'unstop', 'Yes'][stop.length % 3]!)).answer).toMatch(/Alerts are on/);
      expect(await state(one.publicId)).toEqual({ is_active: true, pending_verification: false });
    }

    for (const help of ['HELP', ' info', 'what is this?']) {
      expect((await gateway.reply(PHONE, help)).answer).toBe(
        `Outage alerts from ${PUBLIC_BASE_URL}. Reply STATUS for what is going on now, STOP to stop these texts, START to get them again.`,
      );
    }
    expect((await gateway.reply('+94779999999', 'START')).answer).toMatch(/no alerts here/);
  });

  it('STATUS answers the ongoing outages matching the number’s subscriptions (asked of the feed), or that there is none', async () => {
    const subscription = await created(PHONE, { locationKeywords: ['Kandy'] });
    await codeTextTo(PHONE);
    await gateway.reply(PHONE, 'YES');
    expect((await gateway.reply(PHONE, 'status')).answer).toBe('Nothing is going on for your alerts now.');
    const payload = (id: string, areas: string[]) => ({
      id,
      feeder: 'F12',
      areas,
      timeOff: '2026-11-26T08:15:00+05:30',
      timeRestored: null,
      cause: null,
      estimatedRestoration: null,
    });
    const row = (id: string, areas: string[], notified: boolean) => ({
      id,
      feeder: 'F12',
      areas: JSON.stringify(areas),
      time_off: new Date('2026-11-26T02:45:00Z'),
      payload: JSON.stringify(payload(id, areas)),
      in_feed: true,
      outage_notified_at: notified ? new Date('2026-11-26T02:50:00Z') : null,
      first_seen_at: new Date('2026-11-26T02:46:00Z'),
      last_seen_at: new Date('2026-11-26T02:46:00Z'),
    });
    const columns = await knex()('power_outages').columnInfo();
    const insert = (values: Record<string, unknown>) =>
      knex()('power_outages').insert(Object.fromEntries(Object.entries(values).filter(([name]) => name in columns)));
    await insert(row('PO-K', ['Kandy', 'Peradeniya'], true));
    await insert(row('PO-G', ['Galle'], true));
    await insert(row('PO-W', ['Kandy'], false));
    try {
      const answer = (await gateway.reply(PHONE, ' Status')).answer;
      expect(answer).toMatch(/^Power outages: Kandy, Peradeniya \(feeder F12\): no power since /);
      expect(answer).not.toContain('Galle');
      expect(answer.split('\n')).toHaveLength(1);
      await gateway.reply(PHONE, 'STOP');
      expect((await gateway.reply(PHONE, 'STATUS')).answer).toMatch(/gets no alerts now/);
    } finally {
      await knex()('power_outages').whereIn('id', ['PO-K', 'PO-G', 'PO-W']).delete();
    }
    void subscription;
  });

  it('honours a STOP: no verification text to the number until it replies START itself, whoever subscribes it', async () => {
    const first = await created(PHONE);
    await codeTextTo(PHONE);
    expect((await gateway.reply(PHONE, 'Stop.')).answer).toMatch(/no more alert texts/);
    const texts = gateway.textsTo(PHONE).length;
    // Someone subscribes the number again: it is made, and waits; nothing is texted to it.
    const again = await created(PHONE);
    expect(
      await knex()('delivery_sms_outbox').whereIn('subscription_id', knex()('notification_subscriptions').where({ public_id: again.publicId }).select('id')),
    ).toEqual([]);
    expect(gateway.textsTo(PHONE)).toHaveLength(texts);
    // The number itself says START: its alerts are on, the new one confirmed by it.
    expect((await gateway.reply(PHONE, 'START')).answer).toMatch(/Alerts are on for this number/);
    expect(await state(again.publicId)).toEqual({ is_active: true, pending_verification: false });
    expect(await state(first.publicId)).toEqual({ is_active: true, pending_verification: false });
    // And a later subscription is texted its code again.
    const before = gateway.textsTo(PHONE).length;
    await created(PHONE);
    await expect.poll(() => gateway.textsTo(PHONE).length, { timeout: 10_000 }).toBe(before + 1);
    expect(gateway.textsTo(PHONE).at(-1)!.body).toMatch(/\b\d{6}\b/);
  });

  it('takes a signed reply once: the same YES posted again after a STOP (a replay) turns nothing back on', async () => {
    const subscription = await created(PHONE);
    await codeTextTo(PHONE);
    const url = `${PUBLIC_BASE_URL}/api/sms/inbound`;
    const yes = {
      From: PHONE,
      To: gateway.env.Sms__From!,
      Body: 'YES',
      AccountSid: gateway.env.Sms__AccountSid!,
      MessageSid: 'SMreplayreplayreplayreplay000001',
    };
    const post = (fields: Record<string, string>) =>
      app().inject({
        method: 'POST',
        url: '/api/sms/inbound',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(AUTH_TOKEN, url, fields) },
        payload: new URLSearchParams(fields).toString(),
      });
    expect((await post(yes)).body).toContain('Alerts are on for this number');
    expect((await gateway.reply(PHONE, 'STOP')).answer).toMatch(/no more alert texts/);
    const replayed = await post(yes);
    expect(replayed.statusCode).toBe(200);
    expect(replayed.body).not.toContain('<Message>');
    expect(await state(subscription.publicId)).toEqual({ is_active: false, pending_verification: false });
    // A signed reply without a MessageSid is refused, naming it.
    const { MessageSid: _, ...withoutSid } = yes;
    const refused = await post(withoutSid);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('body/MessageSid');
    expect(await state(subscription.publicId)).toEqual({ is_active: false, pending_verification: false });
  });

  it('ignores a signed reply meant for another number or account of the gateway, and a STOP gives up verification texts still to send', async () => {
    const subscription = await created(PHONE);
    await codeTextTo(PHONE);
    const url = `${PUBLIC_BASE_URL}/api/sms/inbound`;
    for (const fields of [
      { From: PHONE, To: '+15550001111', Body: 'YES', AccountSid: gateway.env.Sms__AccountSid! },
      { From: PHONE, To: gateway.env.Sms__From!, Body: 'YES', AccountSid: 'ACsomeoneelse' },
    ]) {
      const response = await app().inject({
        method: 'POST',
        url: '/api/sms/inbound',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(AUTH_TOKEN, url, fields) },
        payload: new URLSearchParams(fields).toString(),
      });
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toContain('<Message>');
    }
    expect(await state(subscription.publicId)).toEqual({ is_active: false, pending_verification: true });

    const [{ id }] = await knex()('notification_subscriptions').where({ public_id: subscription.publicId }).select('id');
    await knex()('delivery_sms_outbox').insert({
      subscription_id: id,
      recipient: PHONE,
      feed_id: 'utility.power-outages',
      state: 'pending',
      due_at: new Date(clock.now().getTime() + 3600_000),
      created_at: clock.now(),
    });
    await gateway.reply(PHONE, 'STOP');
    expect(
      Number((await knex()('delivery_sms_outbox').where({ subscription_id: id }).whereIn('state', ['pending', 'processing']).count({ n: '*' }))[0].n),
    ).toBe(0);
  });

  it('answers an unsigned or wrongly signed callback with a 403 that changes nothing', async () => {
    const subscription = await created(PHONE);
    await codeTextTo(PHONE);
    const forged = await gateway.reply(PHONE, 'YES', { signature: 'bm90IGEgc2lnbmF0dXJl' });
    expect(forged.status).toBe(403);
    const unsigned = await app().inject({
      method: 'POST',
      url: '/api/sms/inbound',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `From=${encodeURIComponent(PHONE)}&Body=YES`,
    });
    expect(unsigned.statusCode).toBe(403);
    expect(await state(subscription.publicId)).toEqual({ is_active: false, pending_verification: true });
    expect(harness.logs.join('')).not.toContain(AUTH_TOKEN);
  });

  it('delivers a notification once after a gateway 500, fitted to Sms__MaxSegments, and records its delivery report', async () => {
    const subscription = await created(PHONE);
    // The verification text goes first: a fault scripted next is the notification's, not the code's.
    await codeTextTo(PHONE);
    await gateway.reply(PHONE, 'YES');
    gateway.texts.length = 0;
    gateway.script({ status: 500 });
    await servicesOf(app()).pipeline.processNotificationEvents([outage('PO-SMS-1', ['Kandy', 'Peradeniya'])], { awaitDelivery: true });
    const ledger = () => knex()('notification_delivery_ledger').where({ provider: 'Sms' }).orderBy('id');
    expect((await ledger())[0]).toMatchObject({ status: 'retrying', attempts: 1 });
    expect((await ledger())[0].last_error).toBe('sms gateway 500 (50000)');
    await knex()('notification_delivery_ledger').where({ status: 'retrying' }).update({ next_attempt_at: knex().fn.now() });
    await servicesOf(app()).dispatcher.drain();
    expect((await ledger()).map((row) => row.status)).toEqual(['delivered']);
    expect(gateway.textsTo(PHONE)).toHaveLength(1);
    const [text] = gateway.textsTo(PHONE);
    expect(text!.body).toMatch(/^Power outage: Kandy, Peradeniya\n/);
    expect(text!.body).toContain(`${PUBLIC_BASE_URL}/manage/${subscription.publicId}`);
    expect(text!.statusCallback).toBe(`${PUBLIC_BASE_URL}/api/sms/status`);

    expect(await gateway.report(text!.sid, 'delivered')).toBe(200);
    expect(await knex()('delivery_sms_messages').where({ sid: text!.sid }).first('status', 'error_code')).toEqual({ status: 'delivered', error_code: null });
    await servicesOf(app()).dispatcher.drain();
    expect(gateway.textsTo(PHONE)).toHaveLength(1);
  });

  it("shows a carrier's undelivered report on the delivery, with its code, in the admin view and the metrics", async () => {
    await created(PHONE);
    await codeTextTo(PHONE);
    await gateway.reply(PHONE, 'YES');
    gateway.texts.length = 0;
    await servicesOf(app()).pipeline.processNotificationEvents([outage('PO-SMS-U')], { awaitDelivery: true });
    const [text] = gateway.textsTo(PHONE);
    // The carrier could not hand it over (30003: unreachable handset); the gateway says so twice, as gateways do.
    expect(await gateway.report(text!.sid, 'undelivered', 30003)).toBe(200);
    expect(await gateway.report(text!.sid, 'undelivered', 30003)).toBe(200);
    const admin = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' })}` };
    const view = await app().inject({ url: '/api/admin/deliveries?limit=5', headers: admin });
    expect(view.statusCode, view.body).toBe(200);
    const delivery = view.json().items.find((item: { sourceKey: string }) => item.sourceKey === 'PO-SMS-U');
    expect(delivery).toMatchObject({ provider: 'Sms', status: 'delivered', outcome: 'undelivered', outcomeCode: '30003' });
    expect(Date.parse(delivery.outcomeAt)).not.toBeNaN();
    const metrics = parseMetrics((await app().inject('/metrics')).body);
    const undelivered = metrics.find((s) => s.name === 'notification_deliveries_total' && s.labels.provider === 'Sms' && s.labels.outcome === 'undelivered');
    expect(undelivered?.value).toBe(1);
    // "Why didn't my text come?": the operator finds the number as people write it, and its trace says what the carrier said.
    const found = await app().inject({ url: `/api/admin/subscriptions?find=${encodeURIComponent('+94 77 123-4567')}`, headers: admin });
    expect(found.json().items.map((item: { provider: string }) => item.provider)).toEqual(['Sms']);
    expect(found.body).not.toContain(PHONE);
    const trace = await app().inject({ url: `/api/admin/subscriptions/${found.json().items[0].publicId}/trace`, headers: admin });
    const event = trace.json().events.find((e: { sourceKey: string }) => e.sourceKey === 'PO-SMS-U');
    expect(event.deliveries[0]).toMatchObject({ status: 'delivered', outcome: 'undelivered', outcomeCode: '30003' });
  });

  it('a restoration asks "still without power? reply OUT"; OUT twice gives one report, and never changes the feed', async () => {
    await created(PHONE);
    await codeTextTo(PHONE);
    await gateway.reply(PHONE, 'YES');
    // Nothing to report on yet.
    expect((await gateway.reply(PHONE, 'OUT')).answer).toMatch(/no recent message about an outage ending/);
    gateway.texts.length = 0;
    await servicesOf(app()).pipeline.processNotificationEvents([outage('PO-SMS-O')], { awaitDelivery: true });
    const restored = {
      ...outage('PO-SMS-O'),
      eventType: 'Restoration',
      sourcePayload: { ...(outage('PO-SMS-O').sourcePayload as object), timeRestored: '2026-11-22T10:00:00+05:30' },
    };
    await servicesOf(app()).pipeline.processNotificationEvents([restored], { awaitDelivery: true });
    const [outageText, restoredText] = gateway.textsTo(PHONE);
    expect(outageText!.body).not.toContain('Reply OUT');
    expect(restoredText!.body).toMatch(/^Power restored: Kandy\n/);
    expect(restoredText!.body).toContain('Still without power? Reply OUT.');
    expect(restoredText!.body).not.toContain('/still-out');
    const feedState = await knex()('power_outages').select();
    expect((await gateway.reply(PHONE, 'out')).answer).toBe('Thank you. We have passed on that it is not over for you.');
    expect((await gateway.reply(PHONE, ' OUT ')).answer).toBe('Your report is in already: thank you.');
    expect(await knex()('still_out_reports').select('item_key', 'via', 'areas')).toEqual([{ item_key: 'PO-SMS-O', via: 'reply', areas: 'Kandy' }]);
    expect(await knex()('power_outages').select()).toEqual(feedState);
  });

  it('21610 (the number opted out at its carrier) fails the delivery and stops the subscription; 21211 fails it alone', async () => {
    const stopped = await created(PHONE);
    // The verification text goes first: a fault scripted next is the notification's, not the code's.
    await codeTextTo(PHONE);
    await gateway.reply(PHONE, 'YES');
    gateway.script({ status: 400, code: 21610 });
    await servicesOf(app()).pipeline.processNotificationEvents([outage('PO-SMS-2')], { awaitDelivery: true });
    const rows = await knex()('notification_delivery_ledger').where({ provider: 'Sms', source_key: 'PO-SMS-2' });
    expect(rows.map((row) => [row.status, row.last_error])).toEqual([['failed', 'sms gateway 400 (21610): the number opted out at its carrier']]);
    expect(await state(stopped.publicId)).toEqual({ is_active: false, pending_verification: false });

    await gateway.reply(PHONE, 'START');
    gateway.script({ status: 400, code: 21211 });
    await servicesOf(app()).pipeline.processNotificationEvents([outage('PO-SMS-3')], { awaitDelivery: true });
    const failed = await knex()('notification_delivery_ledger').where({ provider: 'Sms', source_key: 'PO-SMS-3' });
    expect(failed.map((row) => row.status)).toEqual(['failed']);
    expect(await state(stopped.publicId)).toEqual({ is_active: true, pending_verification: false });
  });

  it('forgets reports and settled verification texts older than Retention__Days, never a text still to send', async () => {
    const subscription = await created(PHONE);
    const [{ id }] = await knex()('notification_subscriptions').where({ public_id: subscription.publicId }).select('id');
    const old = new Date(clock.now().getTime() - 31 * 24 * 3600 * 1000);
    const recent = new Date(clock.now().getTime() - 24 * 3600 * 1000);
    await knex()('delivery_sms_messages').insert([
      { sid: 'SMold', ledger_id: 1, subscription_id: id, status: 'delivered', sent_at: old, updated_at: old },
      { sid: 'SMrecent', ledger_id: 2, subscription_id: id, status: 'delivered', sent_at: recent, updated_at: recent },
    ]);
    await knex()('delivery_sms_outbox').insert([
      { subscription_id: id, recipient: PHONE, feed_id: 'utility.power-outages', state: 'sent', due_at: old, created_at: old },
      {
        subscription_id: id,
        recipient: PHONE,
        feed_id: 'utility.power-outages',
        state: 'pending',
        due_at: new Date(clock.now().getTime() + 3600_000),
        created_at: old,
      },
    ]);
    await servicesOf(app()).workers.runNow('delivery-sms.retention', { force: true });
    expect(await knex()('delivery_sms_messages').whereIn('sid', ['SMold', 'SMrecent']).pluck('sid')).toEqual(['SMrecent']);
    expect((await knex()('delivery_sms_outbox').where({ subscription_id: id }).where('created_at', old).pluck('state')).sort()).toEqual(['pending']);
  });

  it('counts texts in the metrics under provider="Sms"', async () => {
    const metrics = await app().inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/notification_deliveries_total\{provider="Sms",outcome="delivered"\} [1-9]/);
  });
});
