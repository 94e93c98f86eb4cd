import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { escalateDue } from '../../core/confirmation/escalation-worker.ts';
import { startTwilioGateway, type TwilioGateway } from '../../demo/sms-gateway/twilio-gateway.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../demo/webhook-inbox/webhook-receiver.ts';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { testClock } from '../doubles/smtp-test-app.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { databaseKinds, provisionDatabase, type DatabaseKind, type ProvisionedDatabase } from '../helpers/databases.ts';
import { E2E_JWT_SECRET, e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { servicesOf, startTestApp, type TestApp } from '../helpers/test-app.ts';

const PUBLIC_BASE_URL = 'https://alerts.example.org';
const MONITOR = 'utility-scheduled-outages.monitor';
const CARER_MOBILE = '+94771234567';
const ADMIN = { authorization: `Bearer ${jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' })}` };
const DAY = 24 * 3600;
/** Colombo (UTC+05:30) local time on a December day. */
const local = (day: number, time: string) => new Date(`2026-12-${String(day).padStart(2, '0')}T${time}:00+05:30`);
const planned = (id: string, day: number, patch: Record<string, unknown> = {}) => ({
  id,
  date: `2026-12-${String(day).padStart(2, '0')}`,
  start: '09:00',
  end: '17:00',
  feeder: 'F12',
  areas: ['Kandy'],
  reason: 'Line maintenance',
  status: 'scheduled',
  ...patch,
});

/**
 * Planned outages and the people who rely on power: the notice
 * ScheduledOutages__ConfirmNoticeDays ahead (only to those who confirm),
 * a reminder every day on their own channel until they confirm, then their
 * escalation and the "Not confirmed" list; a cancellation calls it off.
 */
describe.each(await databaseKinds())('planned-outage notices to confirm on %s', (kind: DatabaseKind) => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let sms: TwilioGateway;
  let receiver: WebhookReceiver;
  let harness: TestApp;
  // Tuesday 1 December, 10:00 in Colombo: in the notice hours, away from every digest hour.
  const clock = testClock(local(1, '10:00'));
  /** Each test from its own day on (the clock only moves on). */
  const from = (day: Date) => {
    expect(day.getTime()).toBeGreaterThanOrEqual(clock.now().getTime());
    clock.advance((day.getTime() - clock.now().getTime()) / 1000);
  };

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    [feed, push, receiver] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble(), startWebhookReceiver()]);
    sms = await startTwilioGateway({
      accountSid: 'AC0123456789abcdef',
      authToken: 'twilio-auth-token-0123456789abcdef',
      publicBaseUrl: PUBLIC_BASE_URL,
      number: '+15005550006',
    });
    harness = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-scheduled-outages', 'delivery-push', 'delivery-webhook', 'delivery-sms']),
      now: clock.now,
      env: e2eEnv(
        feed,
        push,
        {
          ...database.env,
          PublicBaseUrl: PUBLIC_BASE_URL,
          ScheduledOutages__Enabled: 'true',
          ScheduledOutages__PollingIntervalSeconds: '3600',
          ScheduledOutages__TimeZone: 'Asia/Colombo',
          ScheduledOutages__ConfirmNoticeDays: '4',
          ScheduledOutages__ConfirmNoticeHour: '9',
          Sms__DefaultRegion: 'LK',
          SubscriptionLimits__MaxSubscriptionsPerUser: '100',
          NotificationPipeline__Rates__Sms: '0',
          Webhook__AllowedHosts: '127.0.0.1',
          Webhook__EncryptionKey: 'webhook-encryption-key-0123456789abcdef',
          NotificationPipeline__SystemSubscriptions__PowerOutages__FeedId: '',
          NotificationPipeline__SystemSubscriptions__PowerOutages__PushTopic: '',
          ...sms.env,
        },
        clock.now,
      ),
    });
    await harness.app.listen({ port: 0, host: '127.0.0.1' });
    sms.setServiceUrl(`http://127.0.0.1:${(harness.app.server.address() as AddressInfo).port}`);
  });
  afterAll(async () => {
    await harness?.close();
    await Promise.all([feed?.close(), push?.close(), sms?.close(), receiver?.close()]);
    await database?.drop();
  });
  beforeEach(async () => {
    await knex()('notification_subscriptions').whereNot({ scope: 'System' }).delete();
    receiver.received.length = 0;
    sms.texts.length = 0;
    push.reset();
  });

  const app = () => harness.app;
  const knex = () => servicesOf(app()).database.knex;
  const poll = async () => {
    await servicesOf(app()).workers.runNow(MONITOR, { force: true });
    await servicesOf(app()).dispatcher.drain();
  };
  const escalation = () =>
    escalateDue({ db: knex(), now: clock.now, listAfterMinutes: 15, installed: () => new Set(['Push', 'Webhook', 'Sms']), notifyLanes: async () => {} });
  /** Time passes, the escalation runs, the lanes send what it queued. */
  const after = async (seconds: number) => {
    clock.advance(seconds);
    const moved = await escalation();
    await servicesOf(app()).dispatcher.drain();
    return moved;
  };
  const subscribe = async (payload: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const response = await app().inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      headers,
      payload: { feedId: 'utility.scheduled-outages', filter: { locationKeywords: ['Kandy'] }, ...payload },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { publicId: string };
  };
  /** Mrs Perera, on the utility's register: she confirms, by webhook here; a text to her carer an hour after the last reminder. */
  const confirming = (preferences: Record<string, unknown> = {}) =>
    subscribe(
      {
        displayName: 'Mrs Perera (oxygen)',
        delivery: { provider: 'Webhook', destination: receiver.hookUrl('perera') },
        preferences: { confirm: true, escalation: [{ provider: 'Sms', destination: CARER_MOBILE, afterMinutes: 60 }], ...preferences },
      },
      ADMIN,
    );
  const hooks = () => receiver.received.map((hook) => JSON.parse(hook.body).data as { eventType: string; title: string; body: string });
  /** The hooks of a type once `count` of them came (a webhook's delivery settles after the lane's). */
  const received = async (eventType: string, count: number) => {
    await expect.poll(() => hooks().filter((hook) => hook.eventType === eventType).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
    return hooks().filter((hook) => hook.eventType === eventType);
  };
  const confirmation = async () => knex()('notification_confirmations').first('state', 'reminded', 'step', 'until', 'next_at');
  const tokenOf = (body: string) => decodeURIComponent(/\/confirm#(\S+)$/.exec(body)?.[1] ?? '');

  it('notices only those who confirm, 4 days ahead, once; reminds them daily on their own channel until they confirm', async () => {
    const perera = await confirming();
    const neighbour = await subscribe({ displayName: 'A neighbour', delivery: { provider: 'Push' } });
    // Saturday the 5th: 4 days ahead, noticed now; Wednesday the 9th is 8 days ahead: not yet.
    feed.setScheduledOutages([planned('SO-5', 5), planned('SO-9', 9)]);
    await poll();

    const notices = await received('ConfirmNotice', 1);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.title).toBe('Power will be cut Sat, 5 Dec 2026: Kandy');
    expect(notices[0]!.body).toMatch(/^Date: Sat, 5 Dec 2026, 09:00–17:00 GMT\+5:30\n[\s\S]*\nPlanned work will cut power in your area\. /);
    expect(notices[0]!.body).toMatch(/\n\nPlease confirm you got this alert: https:\/\/alerts\.example\.org\/confirm#\d+\.[\w-]{43}$/);
    // The neighbour, who does not confirm, got the planned outages as ever, and no notice (nor did the feed's system topic).
    const neighbourTopic = (await knex()('notification_subscriptions').where({ display_name: 'A neighbour' }).first('destination')).destination;
    expect(push.messages(neighbourTopic).map((message) => message.title)).toHaveLength(2);
    expect(push.messages(neighbourTopic).some((message) => /Power will be cut/.test(message.title ?? ''))).toBe(false);
    expect(push.messages('utility-scheduled-outages').some((message) => /Power will be cut/.test(message.title ?? ''))).toBe(false);
    expect(await knex()('notification_delivery_ledger').where({ event_type: 'ConfirmNotice' }).pluck('subscription_id')).toHaveLength(1);
    // Confirmed by the outage's start (09:00 in Colombo); the first reminder a day after the notice.
    expect(await confirmation()).toMatchObject({ state: 'awaiting', reminded: 0, step: 0 });
    expect(new Date((await confirmation()).until).toISOString()).toBe(local(5, '09:00').toISOString());
    expect(new Date((await confirmation()).next_at).toISOString()).toBe(local(2, '10:00').toISOString());

    // Polled again (another instance, a restart): the notice is not made twice.
    await poll();
    expect(await knex()('notification_events').where({ source_key: 'SO-5:notice' }).count({ n: '*' })).toEqual([{ n: 1 }]);

    expect(await after(DAY - 60)).toEqual({ steps: 0, reminders: 0, listed: 0 });
    // The reminder is due, and three instances run the escalation at once: it goes once.
    clock.advance(60);
    const runs = await Promise.all([escalation(), escalation(), escalation()]);
    expect(runs.map((run) => run.reminders).reduce((a, b) => a + b)).toBe(1);
    await servicesOf(app()).dispatcher.drain();
    const reminded = await received('ConfirmNotice', 2);
    expect(reminded).toHaveLength(2);
    expect(reminded[1]!.body).toMatch(/Please confirm you got this alert: https:\/\/alerts\.example\.org\/confirm#/);
    expect(await knex()('notification_delivery_ledger').where({ event_type: 'ConfirmNotice' }).orderBy('id').pluck('source_key')).toEqual([
      'SO-5:notice',
      'SO-5:notice#remind-1',
    ]);

    // She confirms with the reminder's link: no reminder comes the next day, nor any escalation.
    const confirmed = await app().inject({ method: 'POST', url: '/api/confirmations', payload: { token: tokenOf(reminded[1]!.body) } });
    expect(confirmed.json()).toEqual({ confirmed: true });
    expect(await after(DAY)).toEqual({ steps: 0, reminders: 0, listed: 0 });
    expect(await after(3 * DAY)).toEqual({ steps: 0, reminders: 0, listed: 0 });
    expect(hooks().filter((hook) => hook.eventType === 'ConfirmNotice')).toHaveLength(2);
    expect(sms.texts).toHaveLength(0);
    expect(await confirmation()).toMatchObject({ state: 'confirmed', reminded: 1 });
    // Her trace shows the notice went; the neighbour's, that it is only for people who confirm.
    const noticeIn = async (publicId: string) => {
      const trace = await app().inject({ url: `/api/admin/subscriptions/${publicId}/trace`, headers: ADMIN });
      expect(trace.statusCode, trace.body).toBe(200);
      return (trace.json().events as Array<{ sourceKey: string; matched: boolean; criterion: string | null }>).find(
        (event) => event.sourceKey === 'SO-5:notice',
      );
    };
    expect(await noticeIn(perera.publicId)).toMatchObject({ matched: true, criterion: null });
    expect(await noticeIn(neighbour.publicId)).toMatchObject({ matched: true, criterion: 'onlyForConfirming' });
  });

  it('after the last reminder unanswered: the escalation’s text to the carer, then the "Not confirmed" list', async () => {
    from(local(14, '10:00'));
    await confirming();
    // Tuesday the 15th at 20:00, a day and a half ahead: one reminder, the morning of.
    feed.setScheduledOutages([planned('SO-15', 15, { start: '20:00', end: '23:00' })]);
    await poll();
    await received('ConfirmNotice', 1);
    expect(await after(DAY)).toEqual({ steps: 0, reminders: 1, listed: 0 });
    expect(await after(59 * 60)).toEqual({ steps: 0, reminders: 0, listed: 0 });
    expect(await after(60)).toEqual({ steps: 1, reminders: 0, listed: 0 });
    expect(sms.textsTo(CARER_MOBILE)).toHaveLength(1);
    // A long notice in a text: shortened before the line that asks, which is kept whole.
    expect(sms.textsTo(CARER_MOBILE)[0]!.body).toMatch(
      /^Power will be cut Tue, 15 Dec 2026: Kandy\nDate: Tue, 15 Dec 2026, 20:00–23:00 GMT\+5:30[\s\S]*…\n\nPlease confirm you got this alert: reply YES\.$/,
    );
    expect(await after(15 * 60)).toEqual({ steps: 0, reminders: 0, listed: 1 });
    expect(await confirmation()).toMatchObject({ state: 'unconfirmed', reminded: 1, step: 1 });
  });

  it('a change does not replace a reminder waiting to go; a cancellation is told, and nothing more is asked', async () => {
    from(local(21, '10:00'));
    const perera = await confirming();
    feed.setScheduledOutages([planned('SO-24', 24)]);
    await poll();
    await received('NewEntry', 1);
    await received('ConfirmNotice', 1);
    // The next day's reminder is waiting to go when the utility moves the end of the work: the change does not replace it.
    clock.advance(DAY);
    expect(await escalation()).toEqual({ steps: 0, reminders: 1, listed: 0 });
    feed.setScheduledOutages([planned('SO-24', 24, { end: '18:00' })]);
    await poll();
    // The change is claimed (it waits out the subscriber's cooldown), and the reminder goes all the same.
    const hers = knex()('notification_subscriptions').where({ public_id: perera.publicId }).select('id');
    expect(await knex()('notification_delivery_ledger').where({ event_type: 'Updated' }).whereIn('subscription_id', hers).pluck('status')).toHaveLength(1);
    const reminder = await received('ConfirmNotice', 2);
    expect(reminder[1]!.body).toMatch(/Please confirm you got this alert: https:\/\/alerts\.example\.org\/confirm#/);
    expect(await knex()('notification_delivery_ledger').where({ source_key: 'SO-24:notice#remind-1' }).first('status')).toEqual({ status: 'delivered' });
    // The day after, the next reminder is waiting to go when the utility cancels the work.
    clock.advance(DAY);
    expect(await escalation()).toEqual({ steps: 0, reminders: 1, listed: 0 });
    feed.setScheduledOutages([planned('SO-24', 24, { end: '18:00', status: 'cancelled' })]);
    await poll();
    const cancelled = await received('Cancelled', 1);
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.title).toBe('Planned outage cancelled: Kandy');
    expect(await confirmation()).toMatchObject({ state: 'withdrawn', reminded: 2 });
    expect(await knex()('notification_delivery_ledger').where({ source_key: 'SO-24:notice#remind-2' }).first('status', 'skipped_because')).toEqual({
      status: 'skipped',
      skipped_because: 'withdrawn',
    });
    expect(await after(DAY)).toEqual({ steps: 0, reminders: 0, listed: 0 });
    expect(await after(3 * DAY)).toEqual({ steps: 0, reminders: 0, listed: 0 });
    expect(hooks().filter((hook) => hook.eventType === 'ConfirmNotice')).toHaveLength(2);
  });

  it('a notice is not held for quiet hours (a catch-up would not ask for it): it goes, asking to be confirmed', async () => {
    from(local(28, '10:00'));
    await confirming({ quietHours: { start: '08:00', end: '20:00', timeZone: 'Asia/Colombo' } });
    feed.setScheduledOutages([planned('SO-30', 30)]);
    await poll();
    const [notice] = await received('ConfirmNotice', 1);
    expect(notice!.body).toMatch(/Please confirm you got this alert: https:\/\/alerts\.example\.org\/confirm#/);
    expect(await confirmation()).toMatchObject({ state: 'awaiting', reminded: 0 });
    // The planned outage's own news (not a notice) waits for the end of the quiet hours, as ever.
    expect(await knex()('notification_delivery_ledger').where({ event_type: 'NewEntry' }).whereNot({ status: 'delivered' }).pluck('status')).toContain('held');
  });
});
