import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, launchChromium } from '../../test/helpers/browser.ts';
import { readEvents } from '../web/read-events.ts';
import { startMailInbox, type MailInbox } from './mail-inbox.ts';

let inbox: MailInbox;
const logged: string[] = [];

beforeAll(async () => {
  inbox = await startMailInbox({ log: (line) => logged.push(line) });
});
afterAll(() => inbox.close());

const verifyUrl = 'http://127.0.0.1:5000/api/notification-subscriptions/abc/verify?token=t0k3n';

describe('the mail inbox', () => {
  it('takes an email over SMTP with any login and shows it with its links', async () => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: inbox.smtpPort, secure: false, auth: { user: 'any', pass: 'thing' } });
    await transport.sendMail({
      from: 'Outage alerts <alerts@demo.localhost>',
      to: 'reader@example.org',
      subject: 'Confirm your email alerts: <b>Kandy</b>',
      text: `To confirm, open this link:\n${verifyUrl}\n`,
      html: `<html><head><title>x</title></head><body><a href="${verifyUrl}">Confirm</a><script>alert(1)</script></body></html>`,
    });
    transport.close();
    const [email] = (await readEvents(`${inbox.baseUrl}/_events`, 1)) as Array<Record<string, unknown>>;
    expect(email).toMatchObject({
      id: '1',
      to: 'reader@example.org',
      subject: 'Confirm your email alerts: <b>Kandy</b>',
      links: [{ url: verifyUrl, label: 'Confirm the subscription (verification link)' }],
      hasHtml: true,
    });
    expect(logged).toEqual(['email to reader@example.org: Confirm your email alerts: <b>Kandy</b>']);
  });

  it("serves an email's HTML sandboxed: no script runs, and its links open in a new tab", async () => {
    const response = await fetch(`${inbox.baseUrl}/_mail/1.html`);
    expect(response.headers.get('content-security-policy')).toMatch(/^sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'/);
    expect(await response.text()).toMatch(/^<html><head><base target="_blank"><title>/);
    expect((await fetch(`${inbox.baseUrl}/_mail/2.html`)).status).toBe(404);
  });

  it('serves its page under a strict policy', async () => {
    const page = await fetch(inbox.baseUrl);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
    expect(await page.text()).toContain('src="/_assets/mail-inbox.js"');
    expect((await fetch(inbox.baseUrl, { method: 'POST' })).status).toBe(405);
  });

  const chromium = findChromium();
  it.skipIf(!chromium)('fits a phone: a long link wraps inside its card, and the page is no wider than 390 px', async () => {
    const longUrl = `http://127.0.0.1:5000/api/notification-subscriptions/sub_${'x'.repeat(24)}/verify?token=${'T0k3n'.repeat(16)}`;
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: inbox.smtpPort, secure: false });
    await transport.sendMail({ from: 'alerts@demo.localhost', to: 'phone@example.org', subject: 'Long', text: `Open:\n${longUrl}\n` });
    transport.close();
    const browser = await launchChromium(chromium!);
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
      await page.goto(inbox.baseUrl);
      await page.locator('.links code', { hasText: 'T0k3nT0k3nT0k3n' }).first().waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    } finally {
      await browser.close();
    }
  });
});
