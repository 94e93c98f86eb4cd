import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../web/read-events.ts';
import { startPushInbox, type PushInbox } from './push-inbox.ts';

let inbox: PushInbox;
const logged: string[] = [];

beforeAll(async () => {
  inbox = await startPushInbox({ log: (line) => logged.push(line) });
});
afterAll(() => inbox.close());

const publish = (body: unknown, token: string | null = inbox.publishToken) =>
  fetch(inbox.baseUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });

describe('the push inbox', () => {
  it('takes publishes with its token or none, refuses a wrong token, and answers the poll API', async () => {
    expect(inbox.publishToken).toMatch(/^tk_[-_A-Za-z0-9]{29}$/);
    expect((await publish({ topic: 'utility-power-outages', title: 'Power outage: Kandy', message: 'Feeder: F12', sequence_id: 'po-1' })).status).toBe(200);
    expect((await publish({ topic: 'utility-power-outages', title: 'Power restored: Kandy', message: 'Feeder: F12', sequence_id: 'po-1' }, null)).status).toBe(
      200,
    );
    const refused = await publish({ topic: 'utility-power-outages', message: 'x' }, 'tk_wrongwrongwrongwrongwrongwrong');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 40101 });

    const poll = await fetch(`${inbox.baseUrl}/utility-power-outages/json?poll=1`);
    const lines = (await poll.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((m) => [m.title, m.sequence_id])).toEqual([
      ['Power outage: Kandy', 'po-1'],
      ['Power restored: Kandy', 'po-1'],
    ]);
    expect(logged).toContain('utility-power-outages: Power restored: Kandy (sequence_id po-1)');
  });

  it('streams every stored message to the page, the earlier ones first', async () => {
    await publish({ topic: 'alerts-abc', title: '<img src=x onerror=alert(1)>', message: 'hi' });
    const events = (await readEvents(`${inbox.baseUrl}/_events`, 3)) as Array<{ topic: string; title: string }>;
    expect(events.map((e) => e.topic)).toEqual(['utility-power-outages', 'utility-power-outages', 'alerts-abc']);
    expect(events[2].title).toBe('<img src=x onerror=alert(1)>');
  });

  it('serves its page at / and at /<topic> (where ntfy has its web app), under a strict policy, with no message text in it', async () => {
    for (const path of ['/', '/alerts-abc']) {
      const page = await fetch(inbox.baseUrl + path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
      const html = await page.text();
      expect(html).toContain('<script type="module" src="/_assets/push-inbox.js"></script>');
      expect(html).not.toContain('onerror');
    }
    for (const asset of ['/_assets/push-inbox.js', '/_assets/dom.js', '/_assets/inbox.css']) expect((await fetch(inbox.baseUrl + asset)).status).toBe(200);
  });

  it('answers like ntfy where it is not the page: reserved topics, unknown paths, health', async () => {
    expect((await fetch(`${inbox.baseUrl}/v1/health`)).status).toBe(200);
    expect((await fetch(`${inbox.baseUrl}/docs/json?poll=1`)).status).toBe(400);
    const missing = await fetch(`${inbox.baseUrl}/a/b/c/d`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 40401 });
  });
});
