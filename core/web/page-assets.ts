import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

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
  'failure-words.js',
  'filter-fields.js',
  'form-values.js',
  'link-setup.js',
  'calendar-links.js',
  'dom.js',
  'times.js',
  'browser-push.js',
  'code-confirm.js',
  'durations.js',
  'map-view.js',
  'places.js',
  'place-picker.js',
  'outages.js',
  'page-words.js',
  'still-out.js',
  'link-button.js',
  'confirm.js',
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

/**
 * Where a map's tiles come from, as a CSP source: the tile address's scheme
 * and host, `{s}` (Leaflet's a, b and c servers) as the host's wildcard.
 * Pure; Map__TileUrl's pattern holds the address to a shape this reads.
 */
export function tileSource(tileUrl: string): string | null {
  const match = /^(https?):\/\/((?:\{s\}\.)?[A-Za-z0-9.-]+(?::\d{1,5})?)\//.exec(tileUrl);
  return match ? `${match[1]}://${match[2]!.replace('{s}', '*')}` : null;
}

/**
 * The pages' headers when their maps load tiles from `tileUrl`
 * (Map__TileUrl): that host may serve images too, nothing else (and
 * `data:` images, which Leaflet puts in a tile's place as it removes it).
 */
export function pageHeadersWithTiles(tileUrl: string | null): Record<string, string> {
  const source = tileUrl ? tileSource(tileUrl) : null;
  return source
    ? { ...PAGE_HEADERS, 'content-security-policy': PAGE_CSP.replace("img-src 'self' blob:", `img-src 'self' blob: data: ${source}`) }
    : { ...PAGE_HEADERS };
}

export const PAGE_HEADERS = {
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  // The manage page's address names a subscription: never pass it on.
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
} as const;

/**
 * Well-kept libraries the pages use, served from the installed packages
 * under /web/vendor/<name> (never a CDN): the console's chart.
 */
export const VENDOR_ASSETS: Readonly<Record<string, string>> = {
  'uplot.js': 'uplot/dist/uPlot.iife.min.js',
  'uplot.css': 'uplot/dist/uPlot.min.css',
  'leaflet.js': 'leaflet/dist/leaflet.js',
  'leaflet.css': 'leaflet/dist/leaflet.css',
};

const resolvePackageFile = createRequire(import.meta.url).resolve;

export function loadVendorAsset(name: string): PageAsset {
  const file = VENDOR_ASSETS[name];
  if (!file) throw new Error(`no vendor asset ${name}`);
  const contentType = CONTENT_TYPES[name.slice(name.lastIndexOf('.'))]!;
  return { body: readFileSync(resolvePackageFile(file), 'utf8'), contentType };
}

export interface PageAsset {
  readonly body: string;
  readonly contentType: string;
}

/** A page's file: from the pages' shared folder (static/), or from `folder` (a capability's own browser half, as the console's). */
export function loadAsset(name: string, folder: URL = STATIC_DIR): PageAsset {
  const extension = name.slice(name.lastIndexOf('.'));
  const contentType = CONTENT_TYPES[extension];
  if (!contentType) throw new Error(`no content type for ${name}`);
  return { body: readFileSync(new URL(name, folder), 'utf8'), contentType };
}
