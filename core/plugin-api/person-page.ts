import { withoutControls } from './user-text.ts';

/**
 * A small page for a person in a browser (a confirmation, an error), in the
 * look of the subscribe and manage pages, with the way back to them: for a
 * plugin's link routes (an email's verify link, an SMS code). Every text is
 * escaped here; the page loads only the site's stylesheet and icon, runs
 * no script, and may post only its own form.
 */
export interface PersonPage {
  readonly title: string;
  /** Plain text, a paragraph each. */
  readonly paragraphs: readonly string[];
  /** A form that posts back to `action` with these hidden fields, and a button. */
  readonly form?: { readonly action: string; readonly fields: Readonly<Record<string, string>>; readonly button: string };
  /** `good` (green), `bad` (red) or `plain`: the look of the page's message. */
  readonly tone?: 'good' | 'bad' | 'plain';
  /** The language the page is written in (a code of LOCALES, its `lang`); English by default. */
  readonly language?: string;
  /** The words of the link to the subscribe page, in that language; "Get alerts" by default. */
  readonly homeLink?: string;
}

/** The headers of such a page: no cache (it may answer a token), no referrer, a strict CSP. */
export const PERSON_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
} as const;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => withoutControls(value).replace(/[&<>"']/g, (char) => ENTITIES[char]);

/** The HTML of a PersonPage (pure). */
export function personPage(page: PersonPage): string {
  const tone = page.tone ?? 'plain';
  const form = page.form
    ? `<form method="post" action="${escapeHtml(page.form.action)}">${Object.entries(page.form.fields)
        .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
        .join('')}<button type="submit">${escapeHtml(page.form.button)}</button></form>`
    : '';
  return `<!doctype html>
<html lang="${escapeHtml(page.language ?? 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(page.title)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/web/style.css">
</head>
<body>
<main class="person-page ${tone}">
<h1>${escapeHtml(page.title)}</h1>
${page.paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n')}
${form}
<nav class="page-links"><a href="/subscribe">${escapeHtml(page.homeLink ?? 'Get alerts')}</a></nav>
</main>
</body>
</html>
`;
}
