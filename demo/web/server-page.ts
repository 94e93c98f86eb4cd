import { readFileSync } from 'node:fs';

/**
 * The look of the demo's inboxes for the pages a server writes whole (the
 * text gateway's phones, the browser push service): the same stylesheet as
 * the push and mail inboxes, inline (these pages load nothing), and the
 * page's own few rules. Every text in `body` is escaped by the caller.
 */
const INBOX_CSS = readFileSync(new URL('./assets/inbox.css', import.meta.url), 'utf8');

export const SERVER_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
  'x-content-type-options': 'nosniff',
} as const;

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A whole page: its title, its body (HTML, escaped by the caller), the inbox look and `css` of its own. */
export function serverPage(title: string, body: string, css = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${INBOX_CSS}${css}</style>
</head>
<body>
<main>${body}</main>
</body>
</html>
`;
}
