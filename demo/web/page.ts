import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';

/**
 * Pages of the demo's inboxes: a fixed HTML shell (no user data in it), a
 * stylesheet and ES modules served by the server itself, under a strict
 * Content-Security-Policy (nothing from other hosts, no inline script). The
 * scripts fill the page with DOM text nodes, so message texts are never
 * read as HTML.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const COMMON_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' };

export function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...COMMON_HEADERS, ...headers });
  res.end(body);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page: a title, an empty `main` the script fills, the shared stylesheet and the page's module. */
export function sendPage(res: ServerResponse, title: string, script: string): void {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/_assets/inbox.css">
<script type="module" src="/_assets/${escapeHtml(script)}"></script>
</head>
<body>
<main id="app" aria-live="polite"><h1>${escapeHtml(title)}</h1><p>Loading…</p></main>
</body>
</html>
`;
  send(res, 200, 'text/html; charset=utf-8', html, { 'Content-Security-Policy': PAGE_CSP });
}

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/** Static files under `/_assets/`: the shared ones of demo/web/assets plus the page's own. */
export function createAssets(own: Readonly<Record<string, URL>>): (res: ServerResponse, path: string) => boolean {
  const files = new Map<string, { type: string; body: Buffer }>();
  const shared = { 'inbox.css': new URL('./assets/inbox.css', import.meta.url), 'dom.js': new URL('./assets/dom.js', import.meta.url) };
  for (const [name, url] of Object.entries({ ...shared, ...own })) {
    files.set(`/_assets/${name}`, { type: TYPES[name.slice(name.lastIndexOf('.'))], body: readFileSync(url) });
  }
  return (res, path) => {
    const file = files.get(path);
    if (file === undefined) return false;
    send(res, 200, file.type, file.body);
    return true;
  };
}
