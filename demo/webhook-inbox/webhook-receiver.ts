import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A webhook receiver for the demo and the tests: `POST /hooks/{name}` keeps
 * every delivery with its headers, and checks its Standard Webhooks
 * signature with the `standardwebhooks` library once it knows the secret of
 * that hook (`trust(name, secret)`, or the page's form). It answers 200,
 * or the statuses scripted for a hook, in turn (410, 429, 500…).
 * `GET /` shows the deliveries, newest first.
 */
export interface ReceivedHook {
  readonly name: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** true: the signature verifies with the hook's secret; false: it does not; null: the secret is not known. */
  verified: boolean | null;
  readonly answered: number;
  readonly at: Date;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly received: ReceivedHook[];
  /** The URL of a hook, for a create request. */
  hookUrl(name: string): string;
  trust(name: string, secret: string): void;
  script(name: string, ...answers: Array<{ status: number; retryAfter?: number }>): void;
  /** Holds the answers of a hook for `ms` (a receiver that times out). */
  delay(name: string, ms: number): void;
  to(name: string): ReceivedHook[];
  close(): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function verify(secret: string, hook: { body: string; headers: Readonly<Record<string, string>> }): boolean {
  try {
    new Webhook(secret).verify(hook.body, hook.headers);
    return true;
  } catch {
    return false;
  }
}

export async function startWebhookReceiver(options: { port?: number; log?: (message: string) => void } = {}): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const secrets = new Map<string, string>();
  const scripted = new Map<string, Array<{ status: number; retryAfter?: number }>>();
  const delays = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      const hook = /^\/hooks\/([A-Za-z0-9_-]{1,64})$/.exec(url.pathname);
      if (req.method === 'POST' && hook) {
        const name = hook[1]!;
        const answer = scripted.get(name)?.shift() ?? { status: 200 };
        const headers = Object.fromEntries(Object.entries(req.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
        const secret = secrets.get(name);
        received.push({
          name,
          headers,
          body,
          verified: secret === undefined ? null : verify(secret, { body, headers }),
          answered: answer.status,
          at: new Date(),
        });
        options.log?.(`${name}: ${headers['webhook-id']} → ${answer.status}`);
        const send = () => res.writeHead(answer.status, answer.retryAfter === undefined ? {} : { 'retry-after': String(answer.retryAfter) }).end();
        const wait = delays.get(name);
        if (wait) setTimeout(send, wait);
        else send();
        return;
      }
      const trust = /^\/hooks\/([A-Za-z0-9_-]{1,64})\/secret$/.exec(url.pathname);
      if (req.method === 'POST' && trust) {
        receiver.trust(trust[1]!, new URLSearchParams(body).get('secret')?.trim() ?? '');
        res.writeHead(303, { location: '/' }).end();
        return;
      }
      if (req.method === 'GET' && url.pathname === '/') {
        const rows = [...received].reverse().map((hook) => {
          const mark = hook.verified === null ? 'signature not checked: paste the secret below' : hook.verified ? 'signature verified ✓' : 'signature WRONG ✗';
          return `<article><h2>${escapeHtml(hook.name)} <small>${escapeHtml(mark)}</small></h2><p class="meta">${escapeHtml(hook.headers['webhook-id'] ?? '')} · ${hook.at.toLocaleTimeString()} · answered ${hook.answered}</p><pre>${escapeHtml(JSON.stringify(JSON.parse(hook.body || '{}'), null, 2))}</pre>
<form method="post" action="/hooks/${escapeHtml(hook.name)}/secret"><input name="secret" placeholder="whsec_… from the create answer" aria-label="Signing secret of ${escapeHtml(hook.name)}"><button>Check signatures</button></form></article>`;
        });
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
        });
        res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Webhook receiver</title>
<style>body{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:48rem;padding:1rem;color:#1f2937}pre{background:#f3f4f6;padding:.75rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}small{font-weight:normal;color:#4b5563}.meta{color:#6b7280;font-size:.85rem;overflow-wrap:anywhere}form{display:flex;gap:.5rem}input{flex:1;min-width:0;font:inherit;padding:.4rem}button{font:inherit}</style></head>
<body><h1>Webhook receiver</h1><p>Subscribe with the webhook URL <code>${escapeHtml(receiver.hookUrl('my-hook'))}</code> (any name after /hooks/).</p>${rows.join('') || '<p>Nothing received yet.</p>'}</body></html>`);
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const receiver: WebhookReceiver = {
    url,
    received,
    hookUrl: (name) => `${url}/hooks/${name}`,
    trust(name, secret) {
      secrets.set(name, secret);
      for (const hook of received) if (hook.name === name) hook.verified = verify(secret, hook);
    },
    script: (name, ...answers) => void scripted.set(name, [...(scripted.get(name) ?? []), ...answers]),
    delay: (name, ms) => void delays.set(name, ms),
    to: (name) => received.filter((hook) => hook.name === name),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return receiver;
}
