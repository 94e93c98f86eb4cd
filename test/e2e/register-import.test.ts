import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { findChromium, launchChromium } from '../helpers/browser.ts';
import { consoleSession } from '../helpers/console-session.ts';
import { databaseKinds, provisionDatabase, type DatabaseKind, type ProvisionedDatabase } from '../helpers/databases.ts';
import { E2E_JWT_SECRET, realPluginsDir } from '../helpers/e2e-env.ts';
import { jwtFor } from '../helpers/pipeline-plugins.ts';
import { servicesOf, startTestApp, type TestApp } from '../helpers/test-app.ts';

const chromiumPath = findChromium();
const SLOW = { timeout: 20_000, interval: 100 };
const shots = process.env.PAGE_SCREENSHOTS;
const REGISTER = `Name,Phone,Email,Language,Feeder,Place
Mrs Perera (oxygen),011 234 5678,perera@example.org,si,F12,
Mr Silva,077 123 4567,,,,"7.2906, 80.6337"
`;

describe.each(await databaseKinds())('importing a register of people who must confirm, on %s', (kind: DatabaseKind) => {
  let database: ProvisionedDatabase;
  let harness: TestApp;

  beforeAll(async () => {
    database = await provisionDatabase(kind);
    harness = await startTestApp({
      database,
      pluginsDir: realPluginsDir(['utility-power-outages', 'delivery-voice', 'delivery-email']),
      env: {
        PublicBaseUrl: 'https://alerts.example.org',
        Jwt__Secret: E2E_JWT_SECRET,
        Voice__DefaultRegion: 'LK',
        Voice__AccountSid: 'AC0123456789abcdef',
        Voice__AuthToken: 'voice-token-0123456789abcdef',
        Voice__From: '+15005550007',
        VoiceOutbox__IntervalSeconds: '3600',
      },
    });
    await harness.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await harness?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await knex()('notification_subscriptions').delete();
  });

  const app = () => harness.app;
  const knex = () => servicesOf(app()).database.knex;
  const post = async (payload: Record<string, unknown>, withCsrf = true) => {
    const { cookie, csrf } = await consoleSession(app());
    return app().inject({ method: 'POST', url: '/console/api/register', headers: { cookie, ...(withCsrf ? { 'x-csrf-token': csrf } : {}) }, payload });
  };
  const stored = () =>
    knex()('notification_subscriptions')
      .orderBy('id')
      .select('display_name', 'provider', 'destination', 'is_active', 'preferences', 'filter_json', 'scope', 'owner_user_id');

  it('checks a register without storing it, then imports it: a call and an email per person, active and confirming; audited', async () => {
    const checked = await post({ feedId: 'utility.power-outages', csv: REGISTER, dryRun: true });
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toEqual({ imported: false, people: 2, subscriptions: 3, refused: [] });
    expect(await stored()).toEqual([]);

    const imported = await post({ feedId: 'utility.power-outages', csv: REGISTER });
    expect(imported.json()).toEqual({ imported: true, people: 2, subscriptions: 3, refused: [] });
    expect(await stored()).toEqual([
      {
        display_name: 'Mrs Perera (oxygen)',
        provider: 'Voice',
        destination: '+94112345678',
        is_active: true,
        preferences: { confirm: true, language: 'si' },
        filter_json: { feeders: ['F12'] },
        scope: 'User',
        owner_user_id: 'token:ops',
      },
      expect.objectContaining({ display_name: 'Mrs Perera (oxygen)', provider: 'Email', destination: 'perera@example.org', is_active: true }),
      expect.objectContaining({
        display_name: 'Mr Silva',
        provider: 'Voice',
        destination: '+94771234567',
        preferences: { confirm: true, language: 'en' },
        filter_json: { places: [{ lat: 7.2906, lon: 80.6337, radiusMeters: 500 }] },
      }),
    ]);
    // Vouched for by the utility: no verification call goes out.
    expect(await knex()('delivery_voice_outbox')).toHaveLength(0);
    const audited = await knex()('console_audit_log').where({ action: 'register-import' }).first('actor', 'detail');
    expect(audited).toEqual({ actor: 'token:ops', detail: { feedId: 'utility.power-outages', people: 2, subscriptions: 3 } });
  });

  it('reports every refused line with its column and why, and stores nothing', async () => {
    const csv = `${REGISTER}Nobody,,,,F1,
Mr Fernando,+1 900 555 1234,,,F2,
Ms Jayasuriya,0112345679,,fr,,Kandy
`;
    const audited = await knex()('console_audit_log').where({ action: 'register-import' });
    const response = await post({ feedId: 'utility.power-outages', csv });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      imported: false,
      people: 0,
      subscriptions: 0,
      refused: [
        { line: 4, column: 'phone', reason: 'is empty, and so is email: the person could not be reached' },
        { line: 5, column: 'phone', reason: 'must be a phone number that can take calls: this one is a premium rate number' },
        { line: 6, column: 'language', reason: '"fr" is not a language of the service (en, si, ta)' },
        { line: 6, column: 'place', reason: 'must be a latitude and a longitude, like "7.2906, 80.6337"' },
      ],
    });
    expect(await stored()).toEqual([]);
    expect(await knex()('console_audit_log').where({ action: 'register-import' })).toEqual(audited);
  });

  it('reports the line of the file (blank lines and a name on two lines counted), and refuses people subscribed already', async () => {
    expect((await post({ feedId: 'utility.power-outages', csv: REGISTER })).json()).toMatchObject({ imported: true, people: 2 });
    const again = await post({
      feedId: 'utility.power-outages',
      csv: `Name,Phone,Place\n\nMrs Perera,0112345678,"7.2906,\n80.6337"\n\nMr New,0112345670,"7.29, 80.63"\n`,
    });
    expect(again.json()).toEqual({
      imported: false,
      people: 0,
      subscriptions: 0,
      refused: [{ line: 4, column: 'phone', reason: 'has a subscription to this feed already' }],
    });
    expect((await stored()).length).toBe(3);
  });

  it('refuses a file that is not CSV, an unknown feed, and a post without the CSRF token', async () => {
    expect((await post({ feedId: 'utility.power-outages', csv: 'name,phone,feeder\n"Mrs Perera,0112345678,F1\n' })).json()).toMatchObject({
      imported: false,
      refused: [{ column: '', reason: expect.stringMatching(/^is not CSV \(CSV_/) }],
    });
    // A file past 5000 people is refused whole, never cut short.
    const crowd = `Name,Phone,Feeder\n${Array.from({ length: 5001 }, (_, n) => `P${n},011${String(2000000 + n)},F1`).join('\n')}\n`;
    expect((await post({ feedId: 'utility.power-outages', csv: crowd })).json()).toEqual({
      imported: false,
      people: 0,
      subscriptions: 0,
      refused: [{ line: 1, column: '', reason: 'names more than 5000 people: split it' }],
    });
    const feed = await post({ feedId: 'nope', csv: REGISTER });
    expect(feed.statusCode).toBe(400);
    expect(feed.json().message).toMatch(/^body\/feedId/);
    expect((await post({ feedId: 'utility.power-outages', csv: REGISTER }, false)).statusCode).toBe(403);
    expect(await stored()).toEqual([]);
  });

  it.skipIf(!chromiumPath || kind !== 'postgres')('in the console: check a file, see its refused lines, then import a good one', async () => {
    const serviceUrl = `http://127.0.0.1:${(app().server.address() as AddressInfo).port}`;
    const browser = await launchChromium(chromiumPath!);
    try {
      for (const width of [390, 1280]) {
        await knex()('notification_subscriptions').delete();
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(error.message));
        await page.goto(`${serviceUrl}/console#token=${encodeURIComponent(jwtFor(E2E_JWT_SECRET, { sub: 'ops', role: 'admin' }))}`);
        const section = page.locator('section[aria-labelledby="register-heading"]');
        await expect.poll(() => page.locator('#register-feed option').count(), SLOW).toBeGreaterThan(0);
        const file = (csv: string) => page.getByLabel('Register (CSV)').setInputFiles({ name: 'register.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
        await file(`${REGISTER}Nobody,,,,F1,\n`);
        await page.getByRole('button', { name: 'Check' }).click();
        await expect
          .poll(() => page.locator('#register-error').textContent(), SLOW)
          .toBe('Lines refused: 1. Nothing was imported: correct the file and check it again.');
        expect(await page.locator('#register-refused tbody').textContent()).toBe('4phoneis empty, and so is email: the person could not be reached');
        if (shots) await section.screenshot({ path: `${shots}/console-register-refused-${width}.png` });
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
        await file(REGISTER);
        await page.getByRole('button', { name: 'Check' }).click();
        await expect
          .poll(() => page.locator('#register-status').textContent(), SLOW)
          .toBe('Every line is good: 2 people, 3 subscriptions. Import it when ready.');
        expect(await page.locator('#register-refused-wrap').isHidden()).toBe(true);
        expect(await stored()).toEqual([]);
        await page.getByRole('button', { name: 'Import', exact: true }).click();
        await expect
          .poll(() => page.locator('#register-status').textContent(), SLOW)
          .toBe('Imported: 2 people, 3 subscriptions. Each confirms every urgent alert.');
        if (shots) await section.screenshot({ path: `${shots}/console-register-imported-${width}.png` });
        expect((await stored()).length).toBe(3);
        expect(problems).toEqual([]);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  });
});
