import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { formatTime } from '../web/assets/dom.js';
import { escapeHtml, SERVER_PAGE_HEADERS as PAGE_HEADERS, serverPage } from '../web/server-page.ts';
import { startTwilioGateway, type TwilioGateway } from './twilio-gateway.ts';

/** The demo gateway's rate, and the text lane's (NotificationPipeline__Rates__Sms): slow enough to watch the lane work. */
export const DEMO_TEXTS_PER_SECOND = 5;

/**
 * The demo's text gateway: the Twilio-compatible gateway with a page per
 * phone number (`/phone/+94771234567`) showing the texts it got, newest
 * first, and a box to reply (posted to the service as a signed inbound
 * text, its answer shown as a text too). `/` lists the numbers.
 */
export interface SmsGateway extends TwilioGateway {
  readonly baseUrl: string;
}

/** A phone's thread: texts as bubbles, the person's own on the right. */
const PHONE_CSS = `.text{background:var(--card);border:1px solid var(--line);border-radius:14px;padding:8px 12px;margin:8px 0;white-space:pre-wrap;overflow-wrap:anywhere}
.text.mine{background:#e8f0fe;margin-left:3rem}.text .meta{margin:4px 0 0;font-size:0.8rem}
form.reply{display:flex;gap:8px;margin:12px 0}form.reply input{flex:1;min-width:0;font:inherit;padding:8px}form.reply button{font:inherit;padding:8px 14px}
ul.phones{padding-left:18px}a{overflow-wrap:anywhere}`;
const page = (title: string, body: string) => serverPage(title, body, PHONE_CSS);

export async function startSmsGateway(options: { publicBaseUrl?: string; log?: (message: string) => void } = {}): Promise<SmsGateway> {
  const conversations = new Map<string, Array<{ mine: boolean; text: string; at: Date }>>();
  const pages = (gateway: TwilioGateway, req: http.IncomingMessage, res: http.ServerResponse, body: string): boolean => {
    const url = new URL(req.url ?? '/', 'http://gateway');
    if (req.method === 'GET' && url.pathname === '/') {
      const numbers = [...new Set(gateway.texts.map((t) => t.to))];
      const list =
        numbers.length === 0
          ? '<p class="empty">No texts yet. Subscribe by text message on the subscribe page.</p>'
          : `<ul class="phones">${numbers.map((n) => `<li><a href="/phone/${encodeURIComponent(n)}">${escapeHtml(n)}</a></li>`).join('')}</ul>`;
      res.writeHead(200, PAGE_HEADERS).end(page('Text gateway', `<h1>Phones that got texts</h1>${list}`));
      return true;
    }
    const match = /^\/phone\/([^/]+)(\/reply)?$/.exec(url.pathname);
    if (!match) return false;
    const number = decodeURIComponent(match[1]!);
    if (req.method === 'POST' && match[2]) {
      const text = (new URLSearchParams(body).get('Body') ?? '').slice(0, 320);
      void gateway.reply(number, text).then(
        (reply) => {
          const thread = conversations.get(number) ?? [];
          thread.push(
            { mine: true, text, at: new Date() },
            { mine: false, text: reply.status === 200 ? reply.answer : `(the service answered ${reply.status})`, at: new Date() },
          );
          conversations.set(number, thread);
          options.log?.(`reply from ${number}: ${JSON.stringify(text)} → ${reply.status}`);
          res.writeHead(303, { location: `/phone/${encodeURIComponent(number)}` }).end();
        },
        (err: unknown) =>
          res.writeHead(502, PAGE_HEADERS).end(page('Text gateway', `<p>The service could not be reached: ${escapeHtml((err as Error).message)}</p>`)),
      );
      return true;
    }
    if (req.method === 'GET' && !match[2]) {
      const received = gateway.textsTo(number).map((t) => ({ mine: false, text: t.body, at: t.at }));
      const thread = [...received, ...(conversations.get(number) ?? [])].sort((a, b) => b.at.getTime() - a.at.getTime());
      const texts = thread
        .map((t) => `<div class="text${t.mine ? ' mine' : ''}">${escapeHtml(t.text)}<p class="meta">${escapeHtml(formatTime(t.at))}</p></div>`)
        .join('');
      res.writeHead(200, PAGE_HEADERS).end(
        page(
          `Texts to ${number}`,
          `<p><a href="/">All phones</a></p><h1>Texts to ${escapeHtml(number)}</h1>
<form class="reply" method="post" action="/phone/${encodeURIComponent(number)}/reply"><input name="Body" placeholder="Reply (YES, STOP, START, STATUS, HELP)" aria-label="Reply" maxlength="320" required><button>Send</button></form>
${texts || '<p class="empty">No texts yet.</p>'}`,
        ),
      );
      return true;
    }
    return false;
  };
  const gateway = await startTwilioGateway(
    {
      accountSid: 'ACdemo',
      authToken: `demo-sms-${randomBytes(12).toString('base64url')}`,
      number: '+15005550006',
      publicBaseUrl: options.publicBaseUrl ?? 'http://127.0.0.1',
    },
    pages,
  );
  // A gateway with a visible rate, as a long code's is (429 with Retry-After beyond it): the service's text lane keeps to it.
  gateway.limit(DEMO_TEXTS_PER_SECOND, 1);
  return Object.assign(gateway, { baseUrl: gateway.url });
}
