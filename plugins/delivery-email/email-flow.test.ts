import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubscriptionRecipient } from '#plugin-api';
// Test-only imports from outside the plugin: the shared database helpers and the SMTP relay double.
import { jwtFor } from '../../test/helpers/pipeline-plugins.ts';
import { databaseKinds, provisionDatabase, type DatabaseKind, type ProvisionedDatabase } from '../../test/helpers/databases.ts';
import type { TestApp } from '../../test/helpers/test-app.ts';
import { SMTP_USER, startSmtpDouble, type SmtpDouble } from '../../test/doubles/smtp-double.ts';
import {
  createEmailSubscription,
  emailPluginsDir,
  linkIn,
  newOutageEvent,
  OUTBOX_WORKER,
  PUBLIC_BASE_URL,
  startEmailApp,
} from '../../test/doubles/smtp-test-app.ts';
import { servicesOf } from '../../test/helpers/test-app.ts';
import { advanceLedgerClock } from '../../test/helpers/ledger-clock.ts';

describe.each(await databaseKinds())('delivery-email end to end on %s', (kind: DatabaseKind) => {
  let database: ProvisionedDatabase;
  let smtp: SmtpDouble;
  let harness: TestApp;

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    smtp = await startSmtpDouble();
    harness = await startEmailApp({ database, pluginsDir: emailPluginsDir(), smtp });
  });
  afterAll(async () => {
    await harness?.close();
    await smtp?.close();
    await database?.drop();
  });

  const app = () => harness.app;
  const knex = () => servicesOf(harness.app).database.knex;
  const drain = () => servicesOf(app()).workers.runNow(OUTBOX_WORKER);
  const mailTo = (address: string) => smtp.messages.filter((message) => message.envelopeTo.includes(address));
  const subscriptionState = async (publicId: string) =>
    knex()('notification_subscriptions').where({ public_id: publicId }).first('is_active', 'pending_verification');

  /** Subscribes, confirms through the verification email's link, and returns the subscription. */
  async function verifiedSubscription(displayName: string, destination: string) {
    const created = await createEmailSubscription(app(), { displayName, destination });
    await drain();
    const response = await app().inject({ method: 'GET', url: linkIn(mailTo(destination).at(-1)?.text, 'verify') });
    expect(response.statusCode).toBe(200);
    return created;
  }

  describe('double opt-in', () => {
    it('queues a verification email in the create request; its link activates the subscription once', async () => {
      const created = await createEmailSubscription(app(), { displayName: 'Home <b>& garden</b>', destination: 'Verify.Me@Example.ORG' });
      expect(created.isActive).toBe(false);
      expect(created.delivery.destination).toBe('Verify.Me@example.org');
      await expect.poll(() => mailTo('Verify.Me@example.org').length, { timeout: 10_000 }).toBe(1);

      const [email] = mailTo('Verify.Me@example.org');
      expect(email.user).toBe(SMTP_USER);
      expect(email.subject).toBe('Confirm your email alerts: Home <b>& garden</b>');
      expect(email.header('list-unsubscribe')).toBeUndefined();
      expect(email.text).toContain('ignore this email');
      expect(email.html).toContain('Home &lt;b&gt;&amp; garden&lt;/b&gt;');
      expect(email.html).not.toContain('<b>&');
      const link = linkIn(email.text, 'verify');
      expect(email.html).toContain(`${PUBLIC_BASE_URL}${link}`);

      expect(await subscriptionState(created.publicId)).toEqual({ is_active: false, pending_verification: true });
      const page = await app().inject({ method: 'GET', url: link, headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.body).toContain('Home &lt;b&gt;&amp; garden&lt;/b&gt;');
      expect(await subscriptionState(created.publicId)).toEqual({ is_active: true, pending_verification: false });

      // Opened again (a second click, a reopened tab): it says the alerts are on, and changes nothing.
      const againInBrowser = await app().inject({ method: 'GET', url: link, headers: { accept: 'text/html,*/*' } });
      expect(againInBrowser.statusCode).toBe(200);
      expect(againInBrowser.body).toContain('Already confirmed');
      expect(await subscriptionState(created.publicId)).toEqual({ is_active: true, pending_verification: false });
      // Once the alerts are stopped, the used link no longer says they are on.
      await servicesOf(app()).database.knex('notification_subscriptions').where({ public_id: created.publicId }).update({ is_active: false });
      const afterStop = await app().inject({ method: 'GET', url: link });
      expect(afterStop.statusCode).toBe(400);
      expect(afterStop.json()).toMatchObject({ code: 'NP_INVALID_FIELD', message: expect.stringContaining('query/token') });
      await servicesOf(app()).database.knex('notification_subscriptions').where({ public_id: created.publicId }).update({ is_active: true });
    });

    it('a subscriber who reads Sinhala gets the verification email in Sinhala (subject, text and page words), and its link works', async () => {
      const response = await app().inject({
        method: 'POST',
        url: '/api/notification-subscriptions',
        payload: {
          displayName: 'ගෙදර',
          feedId: 'utility.power-outages',
          preferences: { language: 'si' },
          delivery: { provider: 'Email', destination: 'sinhala@example.org' },
        },
      });
      expect(response.statusCode).toBe(201);
      await expect
        .poll(
          async () => {
            await drain();
            return mailTo('sinhala@example.org').length;
          },
          { timeout: 10_000, interval: 50 },
        )
        .toBe(1);
      const [email] = mailTo('sinhala@example.org');
      expect(email.subject).toBe('ඔබේ ඊමේල් ඇඟවීම් තහවුරු කරන්න: ගෙදර');
      expect(email.text).toContain('තහවුරු කිරීමට, මෙම සබැඳිය විවෘත කරන්න');
      expect(email.html).toContain('මගේ ලිපිනය තහවුරු කරන්න');
      expect(email.html).not.toContain('Confirm my address');
      expect((await app().inject({ method: 'GET', url: linkIn(email.text, 'verify') })).statusCode).toBe(200);
    });

    it('refuses a wrong token, a token of another subscription and a missing one with 400', async () => {
      const a = await createEmailSubscription(app(), { displayName: 'a', destination: 'token-a@example.org' });
      const b = await createEmailSubscription(app(), { displayName: 'b', destination: 'token-b@example.org' });
      await drain();
      const linkOfB = linkIn(mailTo('token-b@example.org')[0].text, 'verify');
      const tokenOfB = new URL(linkOfB, PUBLIC_BASE_URL).searchParams.get('token');
      for (const url of [
        `/api/notification-subscriptions/${a.publicId}/verify?token=${tokenOfB}`,
        `/api/notification-subscriptions/${a.publicId}/verify?token=nope`,
        `/api/notification-subscriptions/${a.publicId}/verify`,
        `/api/notification-subscriptions/unknown-id/verify?token=${tokenOfB}`,
      ]) {
        expect((await app().inject({ method: 'GET', url })).statusCode, url).toBe(400);
      }
      expect(await subscriptionState(a.publicId)).toEqual({ is_active: false, pending_verification: true });
      expect(await subscriptionState(b.publicId)).toEqual({ is_active: false, pending_verification: true });
    });

    it('creates that arrive together (written together when they meet in a batch) each get their own email, whose link activates only their own subscription', async () => {
      const destinations = Array.from({ length: 12 }, (_, i) => `together-${i}@example.org`);
      const created = await Promise.all(destinations.map((destination, i) => createEmailSubscription(app(), { displayName: `together ${i}`, destination })));
      // One run may not send all twelve (a scheduled run can hold the outbox's lease): run it until each address has its email.
      await expect
        .poll(
          async () => {
            await drain();
            return destinations.filter((destination) => mailTo(destination).length > 0).length;
          },
          { timeout: 20_000, interval: 50 },
        )
        .toBe(destinations.length);
      for (const [i, destination] of destinations.entries()) {
        const emails = mailTo(destination);
        expect(
          emails.map((email) => email.subject),
          destination,
        ).toEqual([`Confirm your email alerts: together ${i}`]);
        const link = linkIn(emails[0].text, 'verify');
        expect(link).toContain(`/api/notification-subscriptions/${created[i].publicId}/verify?token=`);
        expect((await app().inject({ method: 'GET', url: link })).statusCode).toBe(200);
        expect(await subscriptionState(created[i].publicId)).toEqual({ is_active: true, pending_verification: false });
        // The others are still waiting for their own links.
        if (i + 1 < destinations.length) expect(await subscriptionState(created[i + 1].publicId)).toEqual({ is_active: false, pending_verification: true });
      }
    });

    it('the create hook of a batch writes one verification email per subscription, each with its own working token', async () => {
      // The hook as a batch of creates calls it: several subscriptions in one transaction (through HTTP, whether
      // creates meet in a batch depends on timing).
      const rows: Array<{ id: number | string; public_id: string; display_name: string; feed_id: string; destination: string }> = await knex()(
        'notification_subscriptions',
      )
        .insert(
          [0, 1, 2].map((i) => ({
            public_id: `batch-hook-${i}`,
            display_name: `batch hook ${i}`,
            feed_id: 'utility.power-outages',
            filter_json: {},
            provider: 'Email',
            destination: `batch-hook-${i}@example.org`,
            scope: 'Anonymous',
            is_active: false,
            pending_verification: true,
          })),
        )
        .returning(['id', 'public_id', 'display_name', 'feed_id', 'destination']);
      const target = servicesOf(app()).targets.get('Email')!;
      const recipients: SubscriptionRecipient[] = rows.map((row) => ({
        id: Number(row.id),
        publicId: row.public_id,
        displayName: row.display_name,
        feedId: row.feed_id,
        provider: 'Email',
        destination: row.destination,
        scope: 'Anonymous',
      }));
      await knex().transaction((trx) => target.onSubscriptionsCreated!(trx, recipients));
      await drain();
      for (const row of rows) {
        const emails = mailTo(row.destination);
        expect(
          emails.map((email) => email.subject),
          row.destination,
        ).toEqual([`Confirm your email alerts: ${row.display_name}`]);
        const link = linkIn(emails[0].text, 'verify');
        expect(link).toContain(`/api/notification-subscriptions/${row.public_id}/verify?token=`);
        expect((await app().inject({ method: 'GET', url: link })).statusCode).toBe(200);
        expect(await subscriptionState(row.public_id)).toEqual({ is_active: true, pending_verification: false });
      }
    });

    it('rejects destinations that are not one plain address, storing nothing', async () => {
      for (const destination of ['no-at-sign', 'a@b', 'x@example.org\r\nBcc: evil@example.net', 'a@example.org, b@example.org', '"Name" <a@example.org>']) {
        const response = await app().inject({
          method: 'POST',
          url: '/api/notification-subscriptions',
          payload: { displayName: 'bad', feedId: 'utility.power-outages', delivery: { provider: 'Email', destination } },
        });
        expect(response.statusCode, destination).toBe(400);
        expect(response.json().message).toBe('body/delivery/destination must be an email address');
      }
    });
  });

  describe('notification emails', () => {
    it('carry the rendered subject, an HTML and a text part, and the unsubscribe headers', async () => {
      const subscription = await verifiedSubscription('Kandy alerts', 'notify@example.org');
      const result = await servicesOf(app()).pipeline.processNotificationEvents(
        [newOutageEvent('PO-100', ['Kandy <script>alert(1)</script>', 'Peradeniya & Co'])],
        { awaitDelivery: true },
      );
      expect(result.deliveredCount).toBeGreaterThanOrEqual(1);
      await drain();
      const [email] = mailTo('notify@example.org').filter((m) => m.subject.startsWith('Power outage'));
      expect(email.subject).toBe('Power outage: Kandy <script>alert(1)</script>, Peradeniya & Co');
      expect(email.header('from')).toBe('Outage alerts <alerts@example.net>');
      expect(email.header('auto-submitted')).toBe('auto-generated');
      expect(email.header('message-id')).toMatch(/^<email-outbox-\d+@example\.net>$/);

      const unsubscribe = email.header('list-unsubscribe')!;
      expect(unsubscribe).toMatch(
        new RegExp(`^<${PUBLIC_BASE_URL.replace(/\./g, '\\.')}/api/notification-subscriptions/${subscription.publicId}/unsubscribe\\?token=[A-Za-z0-9_-]+>$`),
      );
      expect(email.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

      expect(email.text).toContain('Feeder: F12\nAreas: Kandy <script>alert(1)</script>, Peradeniya & Co');
      expect(email.text).toContain(`Unsubscribe: ${unsubscribe.slice(1, -1)}`);
      expect(email.html).toContain('Kandy &lt;script&gt;alert(1)&lt;/script&gt;, Peradeniya &amp; Co');
      expect(email.html).not.toContain('<script>');
      expect(email.html).toContain('<strong>Feeder:</strong> F12');
      expect(email.html).toContain('POWER OUTAGE');
      expect(email.html).toContain(`href="${unsubscribe.slice(1, -1)}"`);

      const ledger = await knex()('notification_delivery_ledger').where({ source_key: 'PO-100', provider: 'Email' }).first();
      expect(ledger.status).toBe('delivered');
      expect(await knex()('email_outbox').where({ ledger_id: ledger.id }).first('state', 'params')).toEqual({ state: 'sent', params: {} });
    });

    it('/test queues a test email through the pipeline (the Test template)', async () => {
      const subscription = await verifiedSubscription('Test me', 'test-me@example.org');
      const response = await app().inject({
        method: 'POST',
        url: `/api/notification-subscriptions/${subscription.publicId}/test`,
        headers: { 'x-subscription-token': subscription.manageToken },
      });
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ matchedSubscriptionCount: 1, deliveredCount: 1 });
      await drain();
      const [email] = mailTo('test-me@example.org').filter((m) => m.subject.startsWith('Test notification'));
      expect(email.subject).toBe('Test notification: Test me');
      expect(email.html).toContain('>TEST<');
      expect(email.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    });

    // expect.poll gives up after 1 s by default: a loaded machine needs longer.
    const WAIT = { timeout: 20_000, interval: 50 };
    it("an outage's emails make one thread: the first one's subject, each later one answering it; another outage starts its own", async () => {
      await verifiedSubscription('Thread', 'thread@example.org');
      const pipeline = servicesOf(app()).pipeline;
      const outage = newOutageEvent('PO-300', ['Kandy']);
      const payload = outage.sourcePayload as Record<string, unknown>;
      await pipeline.processNotificationEvents([outage], { awaitDelivery: true });
      // An estimate change waits out the cooldown after the first email: the ledger's clock moves past it.
      await pipeline.processNotificationEvents(
        [
          {
            ...outage,
            eventType: 'EstimateUpdated',
            sourceKey: 'PO-300:etr:1',
            itemKey: 'PO-300',
            sourcePayload: { ...payload, estimatedRestoration: '2026-11-22T12:00:00+05:30' },
          },
        ],
        { awaitDelivery: true },
      );
      const notices = async () => {
        await drain();
        return mailTo('thread@example.org').filter((m) => !m.subject.startsWith('Confirm')).length;
      };
      await advanceLedgerClock(knex(), 24 * 3600);
      await expect
        .poll(async () => {
          servicesOf(app()).dispatcher.wake();
          await servicesOf(app()).dispatcher.settle();
          return notices();
        }, WAIT)
        .toBe(2);
      await pipeline.processNotificationEvents(
        [{ ...outage, eventType: 'Restoration', itemKey: 'PO-300', sourcePayload: { ...payload, timeRestored: '2026-11-22T11:00:00+05:30' } }],
        { awaitDelivery: true },
      );
      await pipeline.processNotificationEvents([newOutageEvent('PO-301', ['Galle'])], { awaitDelivery: true });
      await expect.poll(notices, WAIT).toBe(4);
      const [first, estimate, restored, other] = mailTo('thread@example.org').filter((m) => !m.subject.startsWith('Confirm'));
      const firstId = first!.header('message-id')!;
      expect(firstId).toMatch(/^<email-outbox-\d+@example\.net>$/);
      expect(first!.header('in-reply-to')).toBeUndefined();
      for (const later of [estimate!, restored!]) {
        expect(later.subject).toBe(first!.subject);
        expect(later.header('in-reply-to')).toBe(firstId);
        expect(later.header('references')).toBe(firstId);
        expect(later.header('message-id')).not.toBe(firstId);
      }
      // As a mail client reads them (mailparser): the restoration answers the first email.
      const parsed = await simpleParser(restored!.raw);
      expect(parsed.inReplyTo).toBe(firstId);
      expect([parsed.references].flat()).toEqual([firstId]);
      expect(parsed.subject).toBe(first!.subject);
      // What each one says is still its own: the estimate, then the restoration.
      expect(estimate!.text).toContain('Estimated restoration');
      expect(restored!.text).toMatch(/restored/i);
      expect(other!.subject).toBe('Power outage: Galle');
      expect(other!.header('in-reply-to')).toBeUndefined();
    });

    it('neutralises CR/LF in a subject: no header of its own, no extra recipient', async () => {
      await verifiedSubscription('Injection', 'inject@example.org');
      await servicesOf(app()).pipeline.processNotificationEvents([newOutageEvent('PO-101', ['Kandy\r\nBcc: evil@example.net'])], { awaitDelivery: true });
      await drain();
      const [email] = mailTo('inject@example.org').filter((m) => m.subject.startsWith('Power outage'));
      expect(email.subject).toBe('Power outage: Kandy Bcc: evil@example.net');
      expect(email.header('bcc')).toBeUndefined();
      expect(email.envelopeTo).toEqual(['inject@example.org']);
      expect(smtp.messages.some((m) => m.envelopeTo.includes('evil@example.net'))).toBe(false);
    });
  });

  describe('unsubscribe', () => {
    it('GET shows a confirmation page that changes nothing; its form posts and unsubscribes', async () => {
      const subscription = await verifiedSubscription('Page', 'page@example.org');
      await servicesOf(app()).pipeline.processNotificationEvents([newOutageEvent('PO-200')], { awaitDelivery: true });
      await drain();
      const [email] = mailTo('page@example.org').filter((m) => m.subject.startsWith('Power outage'));
      const link = linkIn(email.text, 'unsubscribe');

      const page = await app().inject({ method: 'GET', url: link, headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<form method="post"');
      expect(page.body).toContain('name="List-Unsubscribe" value="One-Click"');
      expect((await subscriptionState(subscription.publicId))?.is_active).toBe(true);

      const action = /action="([^"]+)"/.exec(page.body)![1].replace(/&amp;/g, '&');
      const posted = await app().inject({
        method: 'POST',
        url: action,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(posted.statusCode).toBe(200);
      expect(posted.body).toContain('Unsubscribed');
      expect(await subscriptionState(subscription.publicId)).toEqual({ is_active: false, pending_verification: false });
      expect((await app().inject({ method: 'GET', url: link, headers: { accept: 'text/html' } })).body).toContain('Already unsubscribed');
    });

    it('one-click as multipart/form-data (as some mail providers send it) unsubscribes too; a file in it is refused', async () => {
      const subscription = await verifiedSubscription('Form data', 'formdata@example.org');
      await servicesOf(app()).pipeline.processNotificationEvents([newOutageEvent('PO-310')], { awaitDelivery: true });
      await drain();
      const link = linkIn(mailTo('formdata@example.org').at(-1)!.text, 'unsubscribe');
      // The body as a client library writes it (the fetch standard's FormData, its own boundary).
      const multipart = async (form: FormData) => {
        const request = new Request('http://x/', { method: 'POST', body: form });
        return { headers: { 'content-type': request.headers.get('content-type')! }, payload: Buffer.from(await request.arrayBuffer()) };
      };
      const withFile = new FormData();
      withFile.append('List-Unsubscribe', 'One-Click');
      withFile.append('attachment', new Blob(['x'.repeat(100)]), 'a.txt');
      const refused = await app().inject({ method: 'POST', url: link, ...(await multipart(withFile)) });
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode).toBeLessThan(500);
      expect((await subscriptionState(subscription.publicId))?.is_active).toBe(true);

      const form = new FormData();
      form.append('List-Unsubscribe', 'One-Click');
      const posted = await app().inject({ method: 'POST', url: link, ...(await multipart(form)) });
      expect(posted.statusCode, posted.body).toBe(200);
      expect((await subscriptionState(subscription.publicId))?.is_active).toBe(false);
    });

    it('one-click POST (RFC 8058) unsubscribes at once; a queued email is then not sent; a bad token is a 400', async () => {
      const subscription = await verifiedSubscription('One click', 'oneclick@example.org');
      await servicesOf(app()).pipeline.processNotificationEvents([newOutageEvent('PO-300')], { awaitDelivery: true });
      await drain();
      const link = linkIn(mailTo('oneclick@example.org').at(-1)!.text, 'unsubscribe');

      const wrongToken = await app().inject({
        method: 'POST',
        url: link.replace(/token=.*/, 'token=forged'),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(wrongToken.statusCode).toBe(400);
      const noBody = await app().inject({ method: 'POST', url: link, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'x=1' });
      expect(noBody.statusCode).toBe(400);

      // A notification queued before the click whose first attempt failed (the relay was down): its retry
      // comes after the click, so it is dropped, and its ledger row says why.
      await smtp.down();
      await servicesOf(app()).pipeline.processNotificationEvents([newOutageEvent('PO-301')], { awaitDelivery: true });
      await drain();
      await smtp.up();
      expect(await knex()('email_outbox').where({ recipient: 'oneclick@example.org', state: 'failed' }).count({ n: '*' })).toEqual([{ n: 1 }]);
      const oneClick = await app().inject({
        method: 'POST',
        url: link,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.statusCode).toBe(200);
      expect((await subscriptionState(subscription.publicId))?.is_active).toBe(false);
      await knex()('email_outbox')
        .where({ recipient: 'oneclick@example.org', state: 'failed' })
        .update({ due_at: new Date(0) });
      await drain();
      expect(mailTo('oneclick@example.org').filter((m) => m.subject.startsWith('Power outage'))).toHaveLength(1);
      const { id } = await knex()('notification_subscriptions').where({ public_id: subscription.publicId }).first('id');
      const ledger = await knex()('notification_delivery_ledger').where({ source_key: 'PO-301', subscription_id: id }).first('status', 'last_error');
      expect(ledger).toEqual({ status: 'failed', last_error: 'subscription is no longer active' });
    });

    it('accepts a multipart/form-data one-click body too', async () => {
      const subscription = await verifiedSubscription('Multipart', 'multipart@example.org');
      await servicesOf(app()).pipeline.processNotificationEvents([newOutageEvent('PO-400')], { awaitDelivery: true });
      await drain();
      const link = linkIn(mailTo('multipart@example.org').at(-1)!.text, 'unsubscribe');
      const boundary = 'XyZ123';
      const response = await app().inject({
        method: 'POST',
        url: link,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
      });
      expect(response.statusCode).toBe(200);
      expect((await subscriptionState(subscription.publicId))?.is_active).toBe(false);
    });
  });

  describe('operator view', () => {
    it('needs an admin JWT', async () => {
      const secret = 'test-jwt-secret-0123456789abcdef';
      expect((await app().inject({ method: 'GET', url: '/api/admin/email-outbox' })).statusCode).toBe(401);
      const user = jwtFor(secret, { sub: 'u1' });
      expect((await app().inject({ method: 'GET', url: '/api/admin/email-outbox', headers: { authorization: `Bearer ${user}` } })).statusCode).toBe(403);
      const admin = jwtFor(secret, { sub: 'ops', role: 'admin' });
      const view = await app().inject({ method: 'GET', url: '/api/admin/email-outbox', headers: { authorization: `Bearer ${admin}` } });
      expect(view.statusCode).toBe(200);
      expect(view.json().counts.sent).toBeGreaterThan(0);
      expect(Object.keys(view.json().counts).sort()).toEqual(['dead', 'failed', 'pending', 'processing', 'sent']);
      expect((await app().inject({ method: 'POST', url: '/api/admin/email-outbox/requeue', payload: {} })).statusCode).toBe(401);
      // No body requeues every dead item (none here); a bad body is a 400 naming the field.
      const all = await app().inject({ method: 'POST', url: '/api/admin/email-outbox/requeue', headers: { authorization: `Bearer ${admin}` } });
      expect(all.statusCode).toBe(200);
      expect(all.json()).toEqual({ requeued: 0 });
      const bad = await app().inject({
        method: 'POST',
        url: '/api/admin/email-outbox/requeue',
        headers: { authorization: `Bearer ${admin}` },
        payload: { ids: ['x'] },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain('ids');
    });
  });
});
