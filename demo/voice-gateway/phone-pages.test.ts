import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoVoiceGateway, type DemoVoiceGateway } from './phone-pages.ts';

const TWIML =
  '<?xml version="1.0" encoding="UTF-8"?><Response><Gather numDigits="1" action="http://SERVICE/api/voice/gather"><Say language="en-GB">Power outage: Kandy &amp; Peradeniya &lt;F12&gt;.</Say><Say language="en-GB">Press 1 to confirm you heard this alert.</Say></Gather></Response>';

describe("the demo voice gateway's phone pages", () => {
  let gateway: DemoVoiceGateway;
  let service: http.Server;
  const keys: string[] = [];

  beforeAll(async () => {
    // The service's gather route, as far as the page needs it: it takes the key and answers TwiML.
    service = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        keys.push(new URLSearchParams(body).get('Digits') ?? '');
        res
          .writeHead(200, { 'content-type': 'text/xml' })
          .end('<Response><Say language="en-GB">Thank you. Your confirmation is recorded.</Say><Hangup/></Response>');
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    gateway = await startDemoVoiceGateway({ publicBaseUrl: serviceUrl });
    gateway.setServiceUrl(serviceUrl);
    const placed = await request(`${gateway.url}/2010-04-01/Accounts/ACdemo/Calls.json`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`ACdemo:${gateway.env.Voice__AuthToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ To: '+94112345678', From: '+15005550007', Twiml: TWIML.replace('http://SERVICE', serviceUrl) }).toString(),
    });
    expect(placed.statusCode).toBe(201);
  });
  afterAll(async () => {
    await gateway?.close();
    await new Promise((resolve) => service?.close(resolve));
  });

  it("shows the call's text as it is read, escaped, and a Press 1 button that sends the key and shows the answer", async () => {
    const list = await (await request(`${gateway.url}/`)).body.text();
    expect(list).toContain('href="/phone/%2B94112345678"');
    const before = await (await request(`${gateway.url}/phone/%2B94112345678`)).body.text();
    expect(before).toContain('Power outage: Kandy &amp; Peradeniya &lt;F12&gt;.');
    expect(before).toContain('<span>en-GB</span>');
    const action = /<form class="key" method="post" action="([^"]+)"><button>Press 1<\/button>/.exec(before)?.[1];
    expect(action).toBeDefined();
    const pressed = await request(`${gateway.url}${action}`, { method: 'POST' });
    expect(pressed.statusCode).toBe(303);
    expect(keys).toEqual(['1']);
    const after = await (await request(`${gateway.url}/phone/%2B94112345678`)).body.text();
    expect(after).toContain('Thank you. Your confirmation is recorded.');
    expect(after).not.toContain('>Press 1</button>');
  });
});
