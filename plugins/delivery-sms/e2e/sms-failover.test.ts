import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwilioGateway, type TwilioGateway } from '../../../demo/sms-gateway/twilio-gateway.ts';
import { testClock } from '../../../test/doubles/smtp-test-app.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../../../test/helpers/databases.ts';
import { realPluginsDir } from '../../../test/helpers/e2e-env.ts';
import { servicesOf, startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { newOutage } from '../../../test/helpers/outage-event.ts';

const PUBLIC_BASE_URL = 'https://alerts.example.org';
const PHONE = '+94771234567';
const NUMBER = '+15005550006';

/**
 * Two gateways, as an operator sets them: the one of Sms__AccountSid, and a
 * backup under Sms__Gateways__Backup__… with an account and token of its
 * own. Texts go to the first; when it is down they go to the backup at
 * once, and to the first again once it has had a minute.
 */
describe('SMS gateways: a backup when the first is down', { timeout: 120_000 }, () => {
  let database: ProvisionedDatabase;
  let primary: TwilioGateway;
  let backup: TwilioGateway;
  let harness: TestApp;
  const clock = testClock(new Date('2026-11-26T10:00:00.000Z'));

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    primary = await startTwilioGateway({
      accountSid: 'ACprimary0001',
      authToken: 'primary-token-0123456789abcdef',
      number: NUMBER,
      publicBaseUrl: PUBLIC_BASE_URL,
    });
    backup = await startTwilioGateway({
      accountSid: 'ACbackup0002',
      authToken: 'backup-token-0123456789abcdef',
      number: NUMBER,
      publicBaseUrl: PUBLIC_BASE_URL,
    });
    harness = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'delivery-sms']),
      now: clock.now,
      env: {
        PublicBaseUrl: PUBLIC_BASE_URL,
        Sms__DefaultRegion: 'LK',
        SmsOutbox__IntervalSeconds: '3600',
        ...primary.env,
        Sms__Gateways__Backup__BaseUrl: backup.url,
        Sms__Gateways__Backup__AccountSid: 'ACbackup0002',
        Sms__Gateways__Backup__AuthToken: 'backup-token-0123456789abcdef',
        Sms__Gateways__Backup__From: NUMBER,
      },
    });
    await harness.app.listen({ port: 0, host: '127.0.0.1' });
    const serviceUrl = `http://127.0.0.1:${(harness.app.server.address() as AddressInfo).port}`;
    primary.setServiceUrl(serviceUrl);
    backup.setServiceUrl(serviceUrl);
  });
  afterAll(async () => {
    await harness?.close();
    await Promise.all([primary?.close(), backup?.close()]);
    await database?.drop();
  });

  const services = () => servicesOf(harness.app);
  const ledger = () => services().database.knex('notification_delivery_ledger').where({ provider: 'Sms' }).orderBy('id');

  it('sends through the backup while the first answers 503 or refuses connections, and through the first again after its minute, each text once', async () => {
    // The first gateway's next answer is a 503: the verification code goes by the backup, at once.
    primary.script({ status: 503 });
    const created = await harness.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'Home', feedId: 'utility.power-outages', delivery: { provider: 'Sms', destination: '077 123 4567' } },
    });
    expect(created.statusCode).toBe(201);
    await expect.poll(() => backup.textsTo(PHONE).length, { timeout: 10_000 }).toBe(1);
    expect([primary.requests, primary.texts.length]).toEqual([1, 0]);
    // A reply signed by the backup (with its own token) is one of ours.
    const yes = await backup.reply(PHONE, 'YES');
    expect([yes.status, yes.answer]).toEqual([200, expect.stringMatching(/Alerts are on/)]);

    // Still inside its minute: the first is not tried.
    await services().pipeline.processNotificationEvents([newOutage('PO-F1')], { awaitDelivery: true });
    expect(backup.textsTo(PHONE).map((text) => text.body.split('\n')[0])).toEqual([expect.any(String), 'Power outage: Kandy']);
    expect(primary.requests).toBe(1);

    // A minute later (on the service's clock) the first is tried again, and takes it.
    clock.advance(61);
    await services().pipeline.processNotificationEvents([newOutage('PO-F2')], { awaitDelivery: true });
    expect(primary.textsTo(PHONE)).toHaveLength(1);
    expect(backup.textsTo(PHONE)).toHaveLength(2);

    // The first goes away altogether (connection refused): the next text goes by the backup, in the same attempt.
    await primary.close();
    await services().pipeline.processNotificationEvents([newOutage('PO-F3')], { awaitDelivery: true });
    expect(backup.textsTo(PHONE)).toHaveLength(3);
    expect((await ledger()).map((row) => [row.status, row.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
      ['delivered', 1],
    ]);
  });
});
