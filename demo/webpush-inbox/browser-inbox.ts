import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { startPushServiceDouble, type PushServiceDouble } from './push-service.ts';

/**
 * The demo's browser push service. A real browser subscribes at its own
 * vendor's push service (which this offline demo cannot reach), so the
 * page makes simulated browsers instead: "Add a browser" creates a
 * WebPush subscription through the service's API with a key pair of its
 * own, and the page shows every push each one got, verified (VAPID) and
 * decrypted (RFC 8291), as the browser would show it.
 */
export interface BrowserInbox extends PushServiceDouble {
  setServiceUrl(url: string): void;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export async function startBrowserInbox(options: { log?: (message: string) => void } = {}): Promise<BrowserInbox> {
  let serviceUrl = '';
  const browsers: Array<{ name: string; area: string; created: string }> = [];
  let inbox!: PushServiceDouble;
  const pages = (req: http.IncomingMessage, res: http.ServerResponse, body: string): boolean => {
    if (req.method === 'POST' && req.url === '/browsers') {
      const area = (new URLSearchParams(body).get('area') ?? '').trim().slice(0, 100);
      const name = `browser-${randomBytes(4).toString('hex')}`;
      const subscription = inbox.subscribe(name);
      const filter = area === '' ? {} : { locationKeywords: [area] };
      void fetch(`${serviceUrl}/api/notification-subscriptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          displayName: `Simulated browser${area ? ` (${area})` : ''}`,
          feedId: 'utility.power-outages',
          filter,
          delivery: { provider: 'WebPush', subscription },
        }),
      }).then(
        (answer) => {
          browsers.push({ name, area, created: answer.ok ? 'subscribed' : `the service answered ${answer.status}` });
          options.log?.(`${name} (${area || 'every area'}): ${answer.status}`);
          res.writeHead(303, { location: '/' }).end();
        },
        (err: unknown) => void res.writeHead(502).end(escapeHtml((err as Error).message)),
      );
      return true;
    }
    if (req.method === 'GET' && req.url === '/') {
      const sections = browsers.map((browser) => {
        const shown = inbox.to(browser.name).map((push) => {
          const data = JSON.parse(push.payload) as { title?: string; body?: string; tag?: string };
          return `<div class="note"><strong>${escapeHtml(data.title ?? '')}</strong><div>${escapeHtml(data.body ?? '')}</div><div class="meta">tag ${escapeHtml(data.tag ?? '')} · Urgency ${escapeHtml(push.urgency ?? '')} · TTL ${escapeHtml(push.ttl ?? '')} · VAPID verified</div></div>`;
        });
        return `<section><h2>${escapeHtml(browser.name)} <small>${escapeHtml(browser.area || 'every area')}: ${escapeHtml(browser.created)}</small></h2>${shown.join('') || '<p>No notifications yet.</p>'}</section>`;
      });
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
      });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Browser push service</title>
<style>body{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:44rem;padding:1rem;color:#1f2937}.note{border:1px solid #d1d5db;border-radius:.5rem;padding:.6rem .8rem;margin:.5rem 0;white-space:pre-wrap;overflow-wrap:anywhere}.meta{color:#6b7280;font-size:.8rem}small{font-weight:normal;color:#4b5563}form{display:flex;gap:.5rem;flex-wrap:wrap}input{flex:1;min-width:0;font:inherit;padding:.4rem}button{font:inherit}</style></head>
<body><h1>Browser push service</h1><p>A real browser subscribes at its vendor's push service, which this demo cannot reach. Add a simulated browser: it subscribes to power outages through the API, and its notifications show here, decrypted.</p>
<form method="post" action="/browsers"><input name="area" placeholder="Area (empty: every area)" aria-label="Area"><button>Add a browser</button></form>${sections.join('')}</body></html>`);
      return true;
    }
    return false;
  };
  inbox = await startPushServiceDouble({ pages });
  return Object.assign(inbox, { setServiceUrl: (url: string) => void (serviceUrl = url) });
}
