import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Test-only imports from outside the plugin: the shared database helpers and the SMTP relay double.
import { jwtFor } from '../../test/helpers/pipeline-plugins.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../../test/helpers/databases.ts';
import { contentDigests, rowCounts } from '../../test/helpers/table-state.ts';
import type { TestApp } from '../../test/helpers/test-app.ts';
import { startSmtpDouble, type SmtpDouble } from '../../test/doubles/smtp-double.ts';
import { createEmailSubscription, emailPluginsDir, linkIn, OUTBOX_WORKER, startEmailApp } from '../../test/doubles/smtp-test-app.ts';
import { servicesOf } from '../../test/helpers/test-app.ts';

const SECRET = 'test-jwt-secret-0123456789abcdef';
const ADMIN = { authorization: `Bearer ${jwtFor(SECRET, { sub: 'ops', role: 'admin' })}` };

/** The email links and the operator routes against hostile requests. */
describe('delivery-email links and admin routes under bad requests', () => {
  let database: ProvisionedDatabase;
  let smtp: SmtpDouble;
  let harness: TestApp;
  const app = () => harness.app;
  const knex = () => servicesOf(harness.app).database.knex;
  const mailTo = (address: string) => smtp.messages.filter((message) => message.envelopeTo.includes(address));

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    smtp = await startSmtpDouble();
    harness = await startEmailApp({ database, pluginsDir: emailPluginsDir(), smtp });
  });
  afterAll(async () => {
    await harness?.close();
    await smtp?.close();
    await database?.drop();
  });

  async function verificationLink(destination: string) {
    const created = await createEmailSubscription(app(), { displayName: 'Home', destination });
    await expect
      .poll(
        async () => {
          await servicesOf(app()).workers.runNow(OUTBOX_WORKER);
          return mailTo(destination).length;
        },
        { timeout: 10_000 },
      )
      .toBe(1);
    return { created, link: linkIn(mailTo(destination)[0].text, 'verify') };
  }

  it('HEAD on a verify link (a mail scanner) changes nothing; the GET then activates', async () => {
    const { created, link } = await verificationLink('head-check@example.org');
    const before = await contentDigests(knex());
    const head = await app().inject({ method: 'HEAD', url: link });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(await contentDigests(knex())).toEqual(before);
    const get = await app().inject({ method: 'GET', url: link });
    expect(get.statusCode).toBe(200);
    expect(await knex()('notification_subscriptions').where({ public_id: created.publicId }).first('is_active')).toEqual({ is_active: true });
  });

  it.each([
    ['a number', { 'List-Unsubscribe': 5 }],
    ['a list', { 'List-Unsubscribe': ['One-Click'] }],
    ['an object', { 'List-Unsubscribe': { toString: 'One-Click' } }],
    ['a bare string', 'One-Click'],
    ['null', null],
  ])('an unsubscribe POST whose JSON body holds %s is a 400, and the subscription stays', async (_name, payload) => {
    const { created, link } = await verificationLink(`json-${Math.random().toString(36).slice(2)}@example.org`);
    await app().inject({ method: 'GET', url: link });
    const unsubscribe = linkIn((await waitForNotificationLink(created.publicId)) ?? '', 'unsubscribe');
    const response = await app().inject({
      method: 'POST',
      url: unsubscribe,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toMatch(/^body/);
    expect(await knex()('notification_subscriptions').where({ public_id: created.publicId }).first('is_active')).toEqual({ is_active: true });
  });

  /** A notification email of the subscription, for its unsubscribe link: a /test sends one. */
  async function waitForNotificationLink(publicId: string): Promise<string | undefined> {
    const row = await knex()('notification_subscriptions').where({ public_id: publicId }).first('destination', 'manage_token_hash');
    const test = await app().inject({ method: 'POST', url: `/api/notification-subscriptions/${publicId}/test`, headers: ADMIN });
    expect(test.statusCode, test.body).toBe(202);
    // The worker may be draining already (woken by the enqueue): wait for the email rather than for one run.
    const withLink = () => mailTo(row.destination).find((message) => message.text?.includes('/unsubscribe?token='))?.text;
    await expect
      .poll(
        async () => {
          await servicesOf(app()).workers.runNow(OUTBOX_WORKER);
          return withLink();
        },
        { timeout: 10_000 },
      )
      .toBeDefined();
    return withLink();
  }

  it.each([
    ['a number beyond any id', '{"ids":[99999999999999999999999]}', 'body/ids/0'],
    ['the first integer JavaScript cannot hold exactly', `{"ids":[${2 ** 53}]}`, 'body/ids/0'],
    ['a fraction', '{"ids":[1.5]}', 'body/ids/0'],
  ])('requeue: %s is a 400 naming the field', async (_name, payload, field) => {
    const before = await rowCounts(knex());
    const response = await app().inject({
      method: 'POST',
      url: '/api/admin/email-outbox/requeue',
      headers: { ...ADMIN, 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toContain(field);
    expect(await rowCounts(knex())).toEqual(before);
  });

  it('the largest id a column can hold that JavaScript holds exactly is accepted (nothing to requeue)', async () => {
    const response = await app().inject({
      method: 'POST',
      url: '/api/admin/email-outbox/requeue',
      headers: ADMIN,
      payload: { ids: [Number.MAX_SAFE_INTEGER] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ requeued: 0 });
  });

  it.each([
    ['POST', '/api/admin/email-outbox/requeue', { ids: 'all' }],
    ['POST', '/api/admin/email-outbox/requeue', { ids: [1], extra: true }],
    ['GET', '/api/admin/email-outbox?limit=lots', undefined],
  ] as const)('an anonymous %s %s with a bad body or query is a 401, not a 400', async (method, url, payload) => {
    const response = await app().inject({ method, url, ...(payload ? { payload } : {}) });
    expect(response.statusCode, response.body).toBe(401);
  });

  it('a NUL in the token query is a 400 naming it', async () => {
    // (A lone surrogate cannot arrive in a query: percent-encoded, it is not valid UTF-8 and stays undecoded.)
    const response = await app().inject({ method: 'GET', url: '/api/notification-subscriptions/abc/verify?token=a%00b' });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toBe('querystring/token must not contain a NUL character');
  });
});
