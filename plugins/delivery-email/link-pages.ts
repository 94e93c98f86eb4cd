import { escapeHtml } from './templates/html.ts';

/**
 * The small HTML pages the email links open. Every value is escaped; the
 * pages load nothing and may only post their own form (see PAGE_HEADERS).
 */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // The URL holds a token: never pass it on as a referrer.
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
} as const;

function page(title: string, paragraphs: readonly string[], formHtml = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>body{font-family:Helvetica,Arial,sans-serif;background:#f3f4f6;color:#1f2933;margin:0;padding:40px 16px}main{max-width:520px;margin:0 auto;background:#fff;padding:32px;border-radius:6px}h1{font-size:22px;margin:0 0 16px}p{line-height:1.5}button{background:#1d4ed8;color:#fff;border:0;border-radius:4px;padding:10px 18px;font-size:15px;cursor:pointer}</style>
</head>
<body><main><h1>${escapeHtml(title)}</h1>${paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('')}${formHtml}</main></body>
</html>
`;
}

export const verifiedPage = (displayName: string) =>
  page('Address confirmed', [`Your email alerts “${displayName}” are on. Every email has a link to stop them.`]);

export const badVerifyLinkPage = () =>
  page('This link does not work', ['The confirmation link is wrong, has expired, or was already used. If your alerts are not on yet, subscribe again to get a new link.']);

/** The page the List-Unsubscribe link opens: a GET changes nothing (mail scanners follow links); the button posts. */
export function unsubscribeConfirmPage(displayName: string, active: boolean, actionUrl: string): string {
  if (!active) return page('Already unsubscribed', [`You no longer get the email alerts “${displayName}”.`]);
  const form =
    `<form method="post" action="${escapeHtml(actionUrl)}">` +
    '<input type="hidden" name="List-Unsubscribe" value="One-Click">' +
    '<button type="submit">Unsubscribe</button></form>';
  return page('Unsubscribe?', [`Stop the email alerts “${displayName}”?`], form);
}

export const unsubscribedPage = (displayName: string) => page('Unsubscribed', [`You will get no more email alerts “${displayName}”.`]);

export const badUnsubscribeLinkPage = () => page('This link does not work', ['The unsubscribe link is wrong or incomplete. Try the link of a more recent email.']);
