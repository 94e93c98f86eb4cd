/**
 * Secrets never reach a log line. Two layers: pino's path redaction for
 * known carriers (auth headers, API keys, tokens), and a last pass over
 * every serialized line that blanks each configured secret value wherever
 * it shows up (an error message, a URL, a nested object).
 */
export const REDACTED = '[REDACTED]';

export const redactPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-subscription-token"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.password',
  '*.apiKey',
  '*.ApiKey',
  '*.token',
  '*.manageToken',
  '*.PublishToken',
  '*.Secret',
];

const SENSITIVE_KEYS = new Set([
  'token',
  'key',
  'api_key',
  'apikey',
  'secret',
  'password',
  'code',
  'access_token',
  'id_token',
  'refresh_token',
  'client_secret',
]);

/** A query key as the server reads it: `+` a space, percent escapes decoded (a malformed escape stays as it is). */
function decodedKey(key: string): string {
  const spaced = key.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced).trim().toLowerCase();
  } catch {
    return spaced.trim().toLowerCase();
  }
}

/**
 * `/verify?token=abc` → `/verify?token=[REDACTED]`, however the key is
 * written: the query parser decodes `tok%65n` to `token`, so the key is
 * judged decoded; the URL is otherwise kept as it came.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const end = url.indexOf('#', start);
  const query = url.slice(start + 1, end === -1 ? undefined : end);
  const redacted = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const key = equals === -1 ? pair : pair.slice(0, equals);
      return SENSITIVE_KEYS.has(decodedKey(key)) ? `${key}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, start + 1)}${redacted}${end === -1 ? '' : url.slice(end)}`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A function that blanks every given secret in a serialized log line, in
 * its raw form and in its JSON-escaped form. Very short values are left
 * alone: blanking two letters everywhere would make logs unreadable.
 */
export function createSecretScrubber(secrets: readonly string[]): (line: string) => string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < 4) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(encodeURIComponent(secret));
  }
  if (forms.size === 0) return (line) => line;
  const pattern = new RegExp(
    [...forms]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'g',
  );
  return (line) => line.replace(pattern, REDACTED);
}
