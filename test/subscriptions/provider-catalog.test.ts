import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpDouble, type SmtpDouble } from '../doubles/smtp-double.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const PLUGINS = ['utility-power-outages', 'delivery-push', 'delivery-email'];

/** GET /api/notification-providers: the installed targets, as their manifests describe them and as their settings leave them. */
describe('the delivery providers a client can choose', () => {
  let database: ProvisionedDatabase;
  let smtp: SmtpDouble;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    smtp = await startSmtpDouble();
  });
  afterAll(async () => {
    await smtp?.close();
    await database?.drop();
  });

  async function providersOf(env: Record<string, string>, query = '') {
    const started: TestApp = await startTestApp({ database, workers: false, pluginsDir: realPluginsDir(PLUGINS), env });
    try {
      const answer = await started.app.inject({ url: `/api/notification-providers${query}` });
      expect(answer.statusCode).toBe(200);
      return answer.json();
    } finally {
      await started.close();
    }
  }

  it('lists every installed target with its destination format, available when it is set up', async () => {
    const providers = await providersOf({ ...smtp.env, Notifications__Push__BaseUrl: 'https://push.example.org' });
    expect(providers).toEqual([
      expect.objectContaining({
        provider: 'Email',
        displayName: 'Email',
        destination: expect.objectContaining({
          required: true,
          label: 'Email address',
          inputType: 'email',
          description: expect.stringMatching(/^An email address\./),
        }),
        available: true,
        unavailableReason: null,
        confirmation: expect.objectContaining({ heading: 'Check your inbox', text: expect.stringContaining('{destination}') }),
      }),
      expect.objectContaining({
        provider: 'Push',
        displayName: 'Push notification',
        destination: { required: false, description: expect.stringMatching(/^Omitted: the service makes a topic/) },
        available: true,
        unavailableReason: null,
        confirmation: null,
        subscribeLinkLabel: 'Open in the ntfy app',
      }),
    ]);
  });

  it("in another language (?language=), each target's words for people come from its own locales; what is for clients stays", async () => {
    const [email, push] = await providersOf({ ...smtp.env, Notifications__Push__BaseUrl: 'https://push.example.org' }, '?language=ta');
    expect(email).toMatchObject({
      displayName: 'மின்னஞ்சல்',
      destination: { label: 'மின்னஞ்சல் முகவரி', description: expect.stringMatching(/^An email address\./), inputType: 'email' },
      confirmation: { heading: 'உங்கள் அஞ்சல் பெட்டியைப் பாருங்கள்', text: expect.stringMatching(/^\{destination\} க்கு/) },
    });
    expect(push).toMatchObject({ displayName: 'புஷ் அறிவிப்பு', subscribeLinkLabel: 'ntfy செயலியில் திறக்கவும்' });
  });

  it('says why a target cannot deliver yet, naming the setting, and still takes its creates', async () => {
    const providers = await providersOf({});
    expect(providers.map((p: { provider: string; available: boolean; unavailableReason: string }) => [p.provider, p.available, p.unavailableReason])).toEqual([
      ['Email', false, expect.stringContaining('EmailProvider__Host is unset')],
      ['Push', false, expect.stringContaining('Notifications__Push__BaseUrl is unset')],
    ]);
  });

  it('a push subscription carries the steps for its subscribe link, in the words of its target', async () => {
    const started = await startTestApp({
      database,
      workers: false,
      pluginsDir: realPluginsDir(PLUGINS),
      env: { Notifications__Push__BaseUrl: 'https://push.example.org' },
    });
    try {
      const created = (
        await started.app.inject({
          method: 'POST',
          url: '/api/notification-subscriptions',
          payload: { displayName: 'Steps', feedId: 'utility.power-outages', delivery: { provider: 'Push' } },
        })
      ).json();
      const topic = created.delivery.destination;
      expect(created.subscribeSteps).toEqual([
        expect.stringMatching(/^Install the free ntfy app/),
        `In the app, tap + and enter the topic ${topic}.`,
        'Tick "Use another server" and enter https://push.example.org.',
        expect.stringMatching(/^Tap Subscribe\./),
      ]);
      // In the language of the subscription's alerts.
      const sinhala = (
        await started.app.inject({
          method: 'POST',
          url: '/api/notification-subscriptions',
          payload: { displayName: 'Steps', feedId: 'utility.power-outages', delivery: { provider: 'Push' }, preferences: { language: 'si' } },
        })
      ).json();
      expect(sinhala.subscribeSteps[1]).toBe(`යෙදුමේ + ඔබා ${sinhala.delivery.destination} මාතෘකාව ඇතුළත් කරන්න.`);
      // Read by a page in another language (the manage page in Tamil): the steps in the page's.
      const read = (language: string) =>
        started.app.inject({
          url: `/api/notification-subscriptions/${sinhala.publicId}?language=${language}`,
          headers: { 'x-subscription-token': sinhala.manageToken },
        });
      const tamil = await read('ta');
      expect(tamil.statusCode).toBe(200);
      expect(tamil.json().subscribeSteps[1]).toMatch(/[\u0B80-\u0BFF]/);
      expect(tamil.json().preferences).toEqual({ language: 'si' });
      const refused = await read('fr');
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toMatch(/querystring\/language/);
    } finally {
      await started.close();
    }
  });
});
