import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpDouble, type SmtpDouble } from '../doubles/smtp-double.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { realPluginsDir } from '../helpers/e2e-env.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const PUSH_BASE_URL = 'https://push.example.org';

/** The pages as the server sends them; the browser tests (test/e2e/subscribe-page.test.ts) drive them. */
describe('the subscribe and manage pages: what the service serves', () => {
  let database: ProvisionedDatabase;
  let smtp: SmtpDouble;
  let started: TestApp;
  const get = (url: string, headers: Record<string, string> = {}) => started.app.inject({ method: 'GET', url, headers });
  const create = async (delivery: { provider: string; destination?: string }) => {
    const response = await started.app.inject({
      method: 'POST',
      url: '/api/notification-subscriptions',
      payload: { displayName: 'Pages', feedId: 'utility.power-outages', delivery },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { publicId: string; manageToken: string; subscribeUrl: string | null };
  };

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    smtp = await startSmtpDouble();
    started = await startTestApp({
      database,
      workers: false,
      pluginsDir: realPluginsDir(['utility-power-outages', 'delivery-push', 'delivery-email']),
      env: { ...smtp.env, Notifications__Push__BaseUrl: PUSH_BASE_URL, SubscriptionLimits__MaxPerIp: '100', SubscriptionLimits__MaxPerIpPerDay: '100' },
    });
  });
  afterAll(async () => {
    await started?.close();
    await smtp?.close();
    await database?.drop();
  });

  it('serves /subscribe under a strict Content-Security-Policy, with no inline script or style', async () => {
    const page = await get('/subscribe');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('unsafe');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=|\son[a-z]+=/i);
    expect(page.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
  });

  it('serves every script and stylesheet the pages load, module imports included, and nothing else', async () => {
    const pending = ['/subscribe', '/manage/abc'];
    const seen = new Set<string>();
    while (pending.length > 0) {
      const url = pending.pop()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      if (url.endsWith('.css')) expect(response.headers['content-type']).toBe('text/css; charset=utf-8');
      if (url.endsWith('.js')) expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      for (const match of response.body.matchAll(/(?:src|href)="(\/web\/[^"]+)"|from '\.\/([^']+)'/g)) pending.push(match[1] ?? `/web/${match[2]}`);
    }
    expect([...seen].filter((url) => url.startsWith('/web/')).length).toBeGreaterThanOrEqual(8);
    expect((await get('/web/web-routes.ts')).statusCode).toBe(404);
    expect((await get('/web/..%2Fweb-routes.ts')).statusCode).toBe(404);
    expect((await get('/web/tsconfig.json')).statusCode).toBe(404);
  });

  it('serves /manage/{publicId} for a well-formed id only', async () => {
    const page = await get('/manage/AbC_-123');
    expect(page.statusCode).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).toContain('src="/web/manage.js"');
    expect((await get('/manage/not%20an%20id')).statusCode).toBe(400);
  });

  it("renders the QR code of a push subscription's subscribe link only for whoever holds its manage token", async () => {
    const push = await create({ provider: 'Push' });
    const url = `/web/subscriptions/${push.publicId}/qr.svg`;
    expect((await get(url)).statusCode).toBe(401);
    expect((await get(url, { 'x-subscription-token': 'wrong' })).statusCode).toBe(403);
    expect((await get('/web/subscriptions/nosuchid/qr.svg', { 'x-subscription-token': push.manageToken })).statusCode).toBe(404);
    const qr = await get(url, { 'x-subscription-token': push.manageToken });
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toBe('image/svg+xml');
    expect(qr.headers['cache-control']).toBe('no-store');
    expect(push.subscribeUrl).toMatch(new RegExp(`^${PUSH_BASE_URL}/alerts-`));
    expect(qr.body).toBe(await QRCode.toString(push.subscribeUrl!, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 }));

    const email = await create({ provider: 'Email', destination: 'qr@example.org' });
    const none = await get(`/web/subscriptions/${email.publicId}/qr.svg`, { 'x-subscription-token': email.manageToken });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toMatch(/no subscribe link/);
  });
});
