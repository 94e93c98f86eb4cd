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

const SENSITIVE_QUERY = /([?&](?:token|key|api_key|apikey|secret|password)=)[^&#\s"]*/gi;

/** `/verify?token=abc` → `/verify?token=[REDACTED]`. */
export function redactUrl(url: string): string {
  return url.replace(SENSITIVE_QUERY, `$1${REDACTED}`);
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
  const pattern = new RegExp([...forms].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
  return (line) => line.replace(pattern, REDACTED);
}
