import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { formatTime } from '../web/assets/dom.js';
import { escapeHtml, SERVER_PAGE_HEADERS, serverPage } from '../web/server-page.ts';
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

/** The form in a line; a browser's name with its area and state beside it. */
const BROWSERS_CSS = `form.add{display:flex;gap:8px;flex-wrap:wrap;margin:0 0 16px}form.add input{flex:1;min-width:0;font:inherit;padding:8px}form.add button{font:inherit;padding:8px 14px}
section{margin:0 0 20px}section h2{font-size:1.15rem;margin:0 0 8px}section h2 small{font-weight:normal;color:var(--muted)}`;

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
          return `<article class="card"><header>${escapeHtml(formatTime(push.at))} · tag ${escapeHtml(data.tag ?? '')} · Urgency ${escapeHtml(push.urgency ?? '')} · TTL ${escapeHtml(push.ttl ?? '')} · VAPID verified</header><h2>${escapeHtml(data.title ?? '')}</h2><p class="body">${escapeHtml(data.body ?? '')}</p></article>`;
        });
        return `<section><h2>${escapeHtml(browser.name)} <small>${escapeHtml(browser.area || 'every area')}: ${escapeHtml(browser.created)}</small></h2><div class="cards">${shown.reverse().join('') || '<p class="empty">No notifications yet.</p>'}</div></section>`;
      });
      res.writeHead(200, SERVER_PAGE_HEADERS);
      res.end(
        serverPage(
          'Browser push service',
          `<h1>Browser push service</h1><p class="lead">A real browser subscribes at its vendor's push service, which this demo cannot reach. Add a simulated browser: it subscribes to power outages through the API, and its notifications show here, decrypted, newest first.</p>
<form class="add" method="post" action="/browsers"><input name="area" placeholder="Area (empty: every area)" aria-label="Area"><button>Add a browser</button></form>${sections.join('') || '<p class="empty">No browser yet.</p>'}`,
          BROWSERS_CSS,
        ),
      );
      return true;
    }
    return false;
  };
  inbox = await startPushServiceDouble({ pages });
  return Object.assign(inbox, { setServiceUrl: (url: string) => void (serviceUrl = url) });
}
