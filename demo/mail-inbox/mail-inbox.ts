import { createServer } from 'node:http';
import { simpleParser, type ParsedMail } from 'mailparser';
import { createEventHub } from '../web/event-stream.ts';
import { listenOnLoopback } from '../web/loopback.ts';
import { createAssets, send, sendPage } from '../web/page.ts';
import { linksOfEmail, type MailLink } from './mail-links.ts';
import { startSmtpReceiver } from './smtp-receiver.ts';

export interface MailInbox {
  readonly baseUrl: string;
  readonly smtpPort: number;
  close(): Promise<void>;
}

/** What the page shows of one email (JSON on the event stream). */
interface ShownEmail {
  id: string;
  receivedAt: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  links: MailLink[];
  hasHtml: boolean;
}

/**
 * Sandboxed on its own: a mail's HTML runs no script, loads nothing from
 * elsewhere, and its links open in a new tab (the base target).
 */
const MAIL_HTML_CSP =
  "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'";

function withLinksInNewTabs(html: string): string {
  const head = /<head[^>]*>/i.exec(html);
  const base = '<base target="_blank">';
  return head ? html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length) : base + html;
}

function show(id: string, mail: ParsedMail, envelopeTo: readonly string[]): ShownEmail {
  const listUnsubscribe = mail.headerLines.find((h) => h.key === 'list-unsubscribe')?.line.replace(/^[^:]*:\s*/, '');
  const text = mail.text ?? '';
  return {
    id,
    receivedAt: new Date().toISOString(),
    from: mail.from?.text ?? '',
    to: envelopeTo.join(', '),
    subject: mail.subject ?? '(no subject)',
    text,
    links: linksOfEmail(text, listUnsubscribe),
    hasHtml: typeof mail.html === 'string',
  };
}

/**
 * The demo's mail catcher: an SMTP server on 127.0.0.1 that takes every
 * message (any login, or none) and keeps it in memory, and a web page
 * listing the emails as they arrive with their links clickable, so the
 * verification link of double opt-in can be followed from it.
 */
export async function startMailInbox(options: { log: (message: string) => void }): Promise<MailInbox> {
  const emails: ShownEmail[] = [];
  const htmlOf = new Map<string, string>();
  const hub = createEventHub();
  const smtp = await startSmtpReceiver({
    authOptional: true,
    checkLogin: () => true,
    onMessage(message, reply) {
      simpleParser(message.raw).then(
        (mail) => {
          const id = String(emails.length + 1);
          const email = show(id, mail, message.envelopeTo);
          if (typeof mail.html === 'string') htmlOf.set(id, withLinksInNewTabs(mail.html));
          emails.push(email);
          hub.publish(JSON.stringify(email));
          options.log(`email to ${email.to}: ${email.subject}`);
          reply(null, `Queued as ${id}`);
        },
        (err: unknown) => reply(Object.assign(new Error(`Cannot parse the message: ${(err as Error).message}`), { responseCode: 554 })),
      );
    },
  });
  const assets = createAssets({ 'mail-inbox.js': new URL('./assets/mail-inbox.js', import.meta.url) });

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET') return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed\n', { Allow: 'GET' });
    if (path === '/') return sendPage(res, 'Mail inbox', 'mail-inbox.js');
    if (path === '/_events')
      return hub.connect(
        req,
        res,
        emails.map((e) => JSON.stringify(e)),
      );
    if (assets(res, path)) return;
    const html = /^\/_mail\/(\d+)\.html$/.exec(path);
    if (html && htmlOf.has(html[1])) return send(res, 200, 'text/html; charset=utf-8', htmlOf.get(html[1])!, { 'Content-Security-Policy': MAIL_HTML_CSP });
    send(res, 404, 'text/plain; charset=utf-8', 'Not found\n');
  });
  const port = await listenOnLoopback(server);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    smtpPort: smtp.port,
    async close() {
      hub.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await smtp.close();
    },
  };
}
