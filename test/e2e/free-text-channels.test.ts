import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesOf } from '../../core/app.ts';
import { startTwilioGateway, type TwilioGateway } from '../../demo/sms-gateway/twilio-gateway.ts';
import { startPushServerDouble, type PushServerDouble } from '../doubles/push-server-double.ts';
import { startSmtpDouble, type SmtpDouble } from '../doubles/smtp-double.ts';
import { startUtilityFeedDouble, type UtilityFeedDouble } from '../doubles/utility-feed-double.ts';
import { databaseKinds, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { e2eEnv, realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const MONITOR = 'utility-power-outages.monitor';
const PHONE = '+94771234567';
const EMAIL = 'matale@example.org';
const SLOW = { timeout: 20_000, interval: 100 };
const CAUSE_LINE = 'Cause: Fallen tree near the bridge';

/**
 * A cause the utility wrote on two lines (CR LF, and a TAB) reaches every
 * channel on one line: the feed's answer check makes each run of TAB, CR
 * and LF one space before anything is stored, so no channel ever gets a
 * line the utility's text made.
 */
describe.each(await databaseKinds())('a multi-line cause on every channel, on %s', (kind) => {
  let database: ProvisionedDatabase;
  let feed: UtilityFeedDouble;
  let push: PushServerDouble;
  let smtp: SmtpDouble;
  let gateway: TwilioGateway;
  let started: TestApp;
  let topic = '';

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    [feed, push, smtp] = await Promise.all([startUtilityFeedDouble(), startPushServerDouble(), startSmtpDouble()]);
    gateway = await startTwilioGateway({
      accountSid: 'AC0123456789abcdef',
      authToken: 'twilio-auth-token-0123456789',
      number: '+15005550006',
      publicBaseUrl: 'https://alerts.example.org',
    });
    started = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'utility-scheduled-outages', 'delivery-push', 'delivery-email', 'delivery-sms']),
      env: e2eEnv(feed, push, {
        ...smtp.env,
        ...gateway.env,
        PublicBaseUrl: 'https://alerts.example.org',
        PowerOutages__Enabled: 'true',
        PowerOutages__PollingIntervalSeconds: '3600',
        EmailOutbox__IntervalSeconds: '3600',
        SmsOutbox__IntervalSeconds: '3600',
        Sms__DefaultRegion: 'LK',
      }),
    });
    const knex = servicesOf(started.app).database.knex;
    for (const delivery of [{ provider: 'Push' }, { provider: 'Email', destination: EMAIL }, { provider: 'Sms', destination: PHONE }]) {
      const response = await started.app.inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: { displayName: `Matale by ${delivery.provider}`, feedId: 'utility.power-outages', filter: { locationKeywords: ['Matale'] }, delivery },
      });
      expect(response.statusCode, response.body).toBe(201);
      if (delivery.provider === 'Push') topic = response.json().delivery.destination;
    }
    // Confirmed, as if the person had answered the verification email and text.
    await knex('notification_subscriptions').update({ is_active: true });
  });
  afterAll(async () => {
    await started?.close();
    await Promise.all([feed?.close(), push?.close(), smtp?.close(), gateway?.close()]);
    await database?.drop();
  });

  it('push, email and SMS each say the cause on one line', async () => {
    feed.setPowerOutages([
      { id: 'PO-ML', feeder: 'F9', areas: ['Matale'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null, cause: 'Fallen tree\r\nnear the\tbridge' },
    ]);
    await servicesOf(started.app).workers.runNow(MONITOR, { force: true });

    await expect.poll(() => push.messages(topic).length, SLOW).toBe(1);
    const pushed = push.messages(topic)[0]!;
    expect(pushed.title).toBe('Power outage: Matale');
    expect((pushed.message ?? '').split('\n')).toContain(CAUSE_LINE);

    let email: (typeof smtp.messages)[number] | undefined;
    await expect.poll(() => (email = smtp.messages.find((m) => m.subject === 'Power outage: Matale')), SLOW).toBeDefined();
    expect((email!.text ?? '').split(/\r?\n/)).toContain(CAUSE_LINE);
    expect(email!.html).toContain('Fallen tree near the bridge');

    await expect.poll(() => gateway.textsTo(PHONE).filter((text) => text.body.startsWith('Power outage: Matale')).length, SLOW).toBe(1);
    const texted = gateway.textsTo(PHONE).find((text) => text.body.startsWith('Power outage: Matale'))!;
    expect(texted.body.split('\n')).toContain(CAUSE_LINE);
    // Nothing of the utility's line break or TAB is left anywhere.
    for (const body of [pushed.message ?? '', email!.text ?? '', texted.body]) expect(body).not.toMatch(/Fallen tree[\r\n\t]/);
  });
});
