import { readFileSync } from 'node:fs';

/**
 * The subscribe and manage pages' files, read once at start (a handful of
 * small files: no static-file plugin, no directory listing, nothing served
 * that is not named here).
 */
const STATIC_DIR = new URL('./static/', import.meta.url);

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

/** Served under /web/<name>. */
export const ASSET_NAMES = [
  'style.css',
  'subscribe.js',
  'manage.js',
  'api-client.js',
  'error-words.js',
  'form-values.js',
  'link-setup.js',
  'calendar-links.js',
  'dom.js',
  'times.js',
  'browser-push.js',
  'console.js',
  'page-words.js',
] as const;

/**
 * Scripts only from this service, no inline script or style, images only
 * from here or the QR code's blob URL, requests only to this service.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "connect-src 'self'",
  // A target that notifies the browser itself registers its service worker (from this service only).
  "worker-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const PAGE_HEADERS = {
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  // The manage page's address names a subscription: never pass it on.
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
} as const;

export interface PageAsset {
  readonly body: string;
  readonly contentType: string;
}

export function loadAsset(name: string): PageAsset {
  const extension = name.slice(name.lastIndexOf('.'));
  const contentType = CONTENT_TYPES[extension];
  if (!contentType) throw new Error(`no content type for ${name}`);
  return { body: readFileSync(new URL(name, STATIC_DIR), 'utf8'), contentType };
}
