import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
// Test-only imports from outside the plugin: the shared database helpers and the SMTP relay double.
import { jwtFor } from '../../test/helpers/pipeline-plugins.ts';
import { databaseKinds, preferredKind, provisionDatabase, type DatabaseKind, type ProvisionedDatabase } from '../../test/helpers/databases.ts';
import type { TestApp } from '../../test/helpers/test-app.ts';
import { startSmtpDouble, type SmtpDouble } from '../../test/doubles/smtp-double.ts';
import { createEmailSubscription, emailPluginsDir, newOutageEvent, OUTBOX_WORKER, startEmailApp, testClock } from '../../test/doubles/smtp-test-app.ts';
import { servicesOf } from '../../test/helpers/test-app.ts';

const JWT_SECRET = 'test-jwt-secret-0123456789abcdef';
const MAX_ATTEMPTS = 3;

describe.each(await databaseKinds())('email outbox retries on %s', (kind: DatabaseKind) => {
  let database: ProvisionedDatabase;
  let smtp: SmtpDouble;
  let harness: TestApp;
  const clock = testClock();

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    smtp = await startSmtpDouble();
    harness = await startEmailApp({
      database,
      pluginsDir: emailPluginsDir(),
      smtp,
      now: clock.now,
      env: { EmailOutbox__MaxAttempts: String(MAX_ATTEMPTS), EmailOutbox__LeaseSeconds: '30', EmailProvider__TimeoutSeconds: '2' },
    });
  });
  afterEach(async () => {
    smtp.blackhole(false);
    smtp.heal();
    await smtp.up();
  });
  afterAll(async () => {
    smtp?.heal();
    await harness?.close();
    await smtp?.close();
    await database?.drop();
  });

  const app = () => harness.app;
  const knex = () => servicesOf(harness.app).database.knex;
  const drain = () => servicesOf(app()).workers.runNow(OUTBOX_WORKER);
  const received = (address: string) => smtp.messages.filter((message) => message.envelopeTo.includes(address));
  const itemOf = async (address: string) => knex()('email_outbox').where({ recipient: address }).first();
  const admin = { authorization: `Bearer ${jwtFor(JWT_SECRET, { sub: 'ops', role: 'admin' })}` };

  it('answers the create request while the relay is down, and retries with growing backoff until it is up: sent once', async () => {
    await smtp.down();
    await createEmailSubscription(app(), { displayName: 'down', destination: 'down@example.org' });

    await drain();
    const first = await itemOf('down@example.org');
    expect(first).toMatchObject({ state: 'failed', attempts: 1 });
    expect(first.last_error).toMatch(/^SMTP E/);
    const firstDelay = (new Date(first.due_at).getTime() - clock.now().getTime()) / 1000;
    expect(firstDelay).toBeGreaterThanOrEqual(24);
    expect(firstDelay).toBeLessThanOrEqual(36);

    await drain(); // not due yet: nothing happens
    expect(await itemOf('down@example.org')).toMatchObject({ state: 'failed', attempts: 1 });

    clock.advance(40);
    await drain();
    const second = await itemOf('down@example.org');
    expect(second).toMatchObject({ state: 'failed', attempts: 2 });
    const secondDelay = (new Date(second.due_at).getTime() - clock.now().getTime()) / 1000;
    expect(secondDelay).toBeGreaterThanOrEqual(48);
    expect(secondDelay).toBeLessThanOrEqual(72);

    await smtp.up();
    clock.advance(80);
    await drain();
    await drain();
    expect(await itemOf('down@example.org')).toMatchObject({ state: 'sent', attempts: 3 });
    expect(received('down@example.org')).toHaveLength(1);
  });

  it('answers the create request at once while the relay accepts connections and never answers', async () => {
    smtp.blackhole(true);
    await createEmailSubscription(app(), { displayName: 'silent', destination: 'silent@example.org' });
    // Had the create waited for the send, the attempt would have timed out (2 s) and the item would be failed by now.
    expect(['pending', 'processing']).toContain((await itemOf('silent@example.org')).state);
    await drain(); // the wake-up's attempt times out (EmailProvider__TimeoutSeconds=2)
    expect(await itemOf('silent@example.org')).toMatchObject({ state: 'failed', attempts: 1 });
    smtp.blackhole(false);
    clock.advance(60);
    await drain();
    expect(await itemOf('silent@example.org')).toMatchObject({ state: 'sent', attempts: 2 });
    expect(received('silent@example.org')).toHaveLength(1);
  });

  it('retries a 4xx reply (452) and delivers once; the ledger row ends delivered', async () => {
    await createEmailSubscription(app(), { displayName: 'busy', destination: 'busy@example.org' });
    await drain();
    await knex()('notification_subscriptions').where({ destination: 'busy@example.org' }).update({ is_active: true, pending_verification: false });
    smtp.failNext({ kind: 'reject', code: 452, message: 'Insufficient system storage' });
    await servicesOf(app()).pipeline.processNotificationEvents([newOutageEvent('PO-452')], { awaitDelivery: true });
    await drain();
    const item = await knex()('email_outbox').where({ recipient: 'busy@example.org', kind: 'notification' }).first();
    expect(item).toMatchObject({ state: 'failed', attempts: 1, last_error: 'SMTP 452 on DATA (EMESSAGE)' });
    clock.advance(60);
    await drain();
    expect(await knex()('email_outbox').where({ id: item.id }).first('state', 'attempts')).toEqual({ state: 'sent', attempts: 2 });
    expect(received('busy@example.org').filter((m) => m.subject.startsWith('Power outage'))).toHaveLength(1);
    expect(await knex()('notification_delivery_ledger').where({ id: item.ledger_id }).first('status')).toEqual({ status: 'delivered' });
  });

  it('a 5xx reply to the message is final: dead after one attempt', async () => {
    smtp.failNext({ kind: 'reject', code: 550, message: 'Mailbox unavailable' });
    await createEmailSubscription(app(), { displayName: 'gone', destination: 'gone@example.org' });
    await drain();
    expect(await itemOf('gone@example.org')).toMatchObject({ state: 'dead', attempts: 1, last_error: 'SMTP 550 on DATA (EMESSAGE)' });
    expect(received('gone@example.org')).toHaveLength(0);
  });

  it('a relay that throttles (421) pauses the email lane on every instance: the email waits, its attempt not counted, and goes once', async () => {
    smtp.failNext({ kind: 'reject', code: 421, message: 'Too many messages, slow down' });
    await createEmailSubscription(app(), { displayName: 'throttled', destination: 'throttled@example.org' });
    await drain();
    expect(await itemOf('throttled@example.org')).toMatchObject({ state: 'pending', attempts: 0, last_error: 'SMTP 421 on DATA (EMESSAGE)' });
    const lane = await knex()('delivery_lanes').where({ provider: 'Email' }).first();
    expect(lane.paused_because).toBe('SMTP 421 on DATA (EMESSAGE)');
    expect(Number(lane.pause_seconds)).toBe(1);
    // Due again on the service's clock; sent once the lane's pause (1 s, on the database's clock) is over.
    clock.advance(2);
    await expect
      .poll(
        async () => {
          await drain();
          return (await itemOf('throttled@example.org')).state;
        },
        { timeout: 10_000 },
      )
      .toBe('sent');
    expect(await itemOf('throttled@example.org')).toMatchObject({ attempts: 1 });
    expect(received('throttled@example.org')).toHaveLength(1);
  });

  it(`goes dead after MaxAttempts (${MAX_ATTEMPTS}), shows in the operator view, and a requeue sends it once`, async () => {
    smtp.failNext({ kind: 'reject', code: 450, message: 'Mailbox unavailable' }, Infinity);
    await createEmailSubscription(app(), { displayName: 'stubborn', destination: 'stubborn@example.org' });
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await drain();
      clock.advance(3600);
    }
    const dead = await itemOf('stubborn@example.org');
    expect(dead).toMatchObject({ state: 'dead', attempts: MAX_ATTEMPTS });
    expect(dead.last_error).toBe(`gave up after ${MAX_ATTEMPTS} attempts: SMTP 450 on DATA (EMESSAGE)`);

    const view = await app().inject({ method: 'GET', url: '/api/admin/email-outbox', headers: admin });
    expect(view.statusCode).toBe(200);
    const listed = view.json().dead.find((item: { id: number }) => item.id === Number(dead.id));
    expect(listed).toMatchObject({
      recipient: 's***@example.org',
      subject: 'Confirm your email alerts: stubborn',
      attempts: MAX_ATTEMPTS,
      kind: 'verification',
    });
    expect(view.json().counts.dead).toBeGreaterThanOrEqual(1);

    smtp.heal();
    const requeue = await app().inject({ method: 'POST', url: '/api/admin/email-outbox/requeue', headers: admin, payload: { ids: [Number(dead.id)] } });
    expect(requeue.json()).toEqual({ requeued: 1 });
    await drain();
    expect(await itemOf('stubborn@example.org')).toMatchObject({ state: 'sent', attempts: 1 });
    expect(received('stubborn@example.org')).toHaveLength(1);
    const again = await app().inject({ method: 'POST', url: '/api/admin/email-outbox/requeue', headers: admin, payload: { ids: [Number(dead.id)] } });
    expect(again.json()).toEqual({ requeued: 0 });
  });

  it('takes over an item left in processing by a crashed instance once its lease lapses: sent once', async () => {
    await smtp.down(); // the verification email waits, failed, until the test sets the crash scene
    await createEmailSubscription(app(), { displayName: 'crash', destination: 'crash@example.org' });
    await drain();
    await smtp.up();
    // What a process killed mid-send leaves: processing, its claim and lease (by the database's clock), one attempt counted.
    await knex()('email_outbox')
      .where({ recipient: 'crash@example.org' })
      .update({ state: 'processing', claim_token: 'dead-instance', due_at: knex().raw("now() + interval '30 seconds'") });
    await drain();
    expect(await itemOf('crash@example.org')).toMatchObject({ state: 'processing', claim_token: 'dead-instance' });
    expect(received('crash@example.org')).toHaveLength(0);

    // The service's clock moving on changes nothing: a lease lapses by the database's clock (here, set to have lapsed).
    clock.advance(31);
    await drain();
    expect(await itemOf('crash@example.org')).toMatchObject({ state: 'processing', claim_token: 'dead-instance' });
    await knex()('email_outbox')
      .where({ recipient: 'crash@example.org' })
      .update({ due_at: knex().raw("now() - interval '1 second'") });
    await drain();
    expect(await itemOf('crash@example.org')).toMatchObject({ state: 'sent', attempts: 2, claim_token: null });
    expect(received('crash@example.org')).toHaveLength(1);
  });

  it('an item whose lease lapsed on its last attempt goes dead without another send', async () => {
    await smtp.down();
    await createEmailSubscription(app(), { displayName: 'poison', destination: 'poison@example.org' });
    await drain();
    await smtp.up();
    await knex()('email_outbox')
      .where({ recipient: 'poison@example.org' })
      .update({ state: 'processing', claim_token: 'dead-instance', attempts: MAX_ATTEMPTS, due_at: knex().raw('now()') });
    await drain();
    const item = await itemOf('poison@example.org');
    expect(item).toMatchObject({ state: 'dead', attempts: MAX_ATTEMPTS + 1 });
    expect(item.last_error).toMatch(/lease lapsed/);
    expect(received('poison@example.org')).toHaveLength(0);
  });

  it('logs neither the API key nor message bodies', () => {
    const logs = harness.logs.join('\n');
    expect(logs).not.toContain(smtp.env.EmailProvider__ApiKey);
    expect(logs).not.toContain('Confirm your email alerts');
    expect(logs).not.toContain('Fallen line');
    expect(logs).toContain('"queue":"delivery-email.outbox"');
  });
});

describe('without a relay configured', () => {
  it('keeps emails pending (their attempts untouched) and says why once', async () => {
    const database = await provisionDatabase(await preferredKind());
    const smtp = await startSmtpDouble();
    const harness = await startEmailApp({ database, pluginsDir: emailPluginsDir(), smtp, env: { EmailProvider__Host: '' } });
    try {
      await createEmailSubscription(harness.app, { displayName: 'later', destination: 'later@example.org' });
      await servicesOf(harness.app).workers.runNow(OUTBOX_WORKER);
      expect(await servicesOf(harness.app).database.knex('email_outbox').first('state', 'attempts')).toEqual({ state: 'pending', attempts: 0 });
      expect(harness.logs.filter((line) => line.includes('EmailProvider__Host is not set'))).toHaveLength(1);
    } finally {
      await harness.close();
      await smtp.close();
      await database.drop();
    }
  });
});
