import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { formatTime } from '../web/assets/dom.js';
import { escapeHtml, SERVER_PAGE_HEADERS as PAGE_HEADERS, serverPage } from '../web/server-page.ts';
import { startVoiceGateway, type VoiceGateway } from './twilio-voice-gateway.ts';

/**
 * The demo's voice gateway: the Twilio-compatible Voice API with a page per
 * phone number (`/phone/+94112345678`) showing each call's text as it would
 * be read (in which voice), newest first, a **Press 1** button where the
 * call asks for a key (posted to the service as a signed key), and what the
 * call said back. `/` lists the numbers.
 */
export interface DemoVoiceGateway extends VoiceGateway {
  readonly baseUrl: string;
}

const CALL_CSS = `.call{background:var(--card);border:1px solid var(--line);border-radius:14px;padding:8px 12px;margin:8px 0;overflow-wrap:anywhere}
.call .said{margin:4px 0}.call .said span{font-size:0.8rem;color:var(--muted);margin-right:6px}.call .answer{background:#e8f0fe;border-radius:10px;padding:6px 10px}
.call .meta{margin:4px 0 0;font-size:0.8rem}form.key{display:inline;margin:0}form.key button{font:inherit;padding:8px 14px;margin:6px 8px 0 0}
ul.phones{padding-left:18px}a{overflow-wrap:anywhere}`;
const page = (title: string, body: string) => serverPage(title, body, CALL_CSS);

export async function startDemoVoiceGateway(options: { publicBaseUrl?: string; log?: (message: string) => void } = {}): Promise<DemoVoiceGateway> {
  /** What each call said back after a key, by call sid. */
  const answers = new Map<string, string[]>();
  const pages = (gateway: VoiceGateway, req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const url = new URL(req.url ?? '/', 'http://gateway');
    if (req.method === 'GET' && url.pathname === '/') {
      const numbers = [...new Set(gateway.calls.map((call) => call.to))];
      const list =
        numbers.length === 0
          ? '<p class="empty">No calls yet. Subscribe by voice call on the subscribe page.</p>'
          : `<ul class="phones">${numbers.map((n) => `<li><a href="/phone/${encodeURIComponent(n)}">${escapeHtml(n)}</a></li>`).join('')}</ul>`;
      res.writeHead(200, PAGE_HEADERS).end(page('Voice gateway', `<h1>Phones that got calls</h1>${list}`));
      return true;
    }
    const match = /^\/phone\/([^/]+)(?:\/calls\/([A-Za-z0-9]+)\/press)?$/.exec(url.pathname);
    if (!match) return false;
    const number = decodeURIComponent(match[1]!);
    const back = `/phone/${encodeURIComponent(number)}`;
    if (req.method === 'POST' && match[2]) {
      const sid = match[2];
      void gateway.press(sid, '1').then(
        (pressed) => {
          answers.set(sid, pressed.status === 200 ? pressed.said.map((line) => line.text) : [`(the service answered ${pressed.status})`]);
          options.log?.(`1 pressed in a call to ${number} → ${pressed.status}`);
          res.writeHead(303, { location: back }).end();
        },
        (err: unknown) =>
          res.writeHead(502, PAGE_HEADERS).end(page('Voice gateway', `<p>The service could not be reached: ${escapeHtml((err as Error).message)}</p>`)),
      );
      return true;
    }
    if (req.method === 'GET' && !match[2]) {
      const calls = gateway
        .callsTo(number)
        .toReversed()
        .map((call) => {
          const said = call.said.map((line) => `<p class="said"><span>${escapeHtml(line.language)}</span>${escapeHtml(line.text)}</p>`).join('');
          const answer = answers.get(call.sid);
          const key = answer
            ? `<p class="said answer">${answer.map(escapeHtml).join(' ')}</p>`
            : call.gather
              ? `<form class="key" method="post" action="${back}/calls/${escapeHtml(call.sid)}/press"><button>Press 1</button></form>`
              : '';
          return `<div class="call">${said}${key}<p class="meta">${escapeHtml(formatTime(call.at))}</p></div>`;
        })
        .join('');
      res
        .writeHead(200, PAGE_HEADERS)
        .end(
          page(
            `Calls to ${number}`,
            `<p><a href="/">All phones</a></p><h1>Calls to ${escapeHtml(number)}</h1>${calls || '<p class="empty">No calls yet.</p>'}`,
          ),
        );
      return true;
    }
    return false;
  };
  const gateway = await startVoiceGateway(
    {
      accountSid: 'ACdemo',
      authToken: `demo-voice-${randomBytes(12).toString('base64url')}`,
      number: '+15005550007',
      publicBaseUrl: options.publicBaseUrl ?? 'http://127.0.0.1',
    },
    (gatewayOf, req, res) => pages(gatewayOf, req, res),
  );
  return Object.assign(gateway, { baseUrl: gateway.url });
}
