/**
 * Just enough MIME to read what nodemailer sends: unfolded headers
 * (encoded words decoded), and the text and HTML parts of a
 * multipart/alternative body, quoted-printable or base64 decoded.
 */
export interface ParsedEmail {
  /** Lower-cased header name → every value, in order, unfolded. */
  readonly headers: ReadonlyMap<string, readonly string[]>;
  header(name: string): string | undefined;
  readonly subject: string;
  readonly text: string | undefined;
  readonly html: string | undefined;
}

interface Entity {
  headers: Map<string, string[]>;
  body: string;
}

function splitEntity(raw: string): Entity {
  const normalised = raw.replace(/\r\n/g, '\n');
  const end = normalised.indexOf('\n\n');
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const body = end === -1 ? '' : normalised.slice(end + 2);
  const headers = new Map<string, string[]>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const values = headers.get(name);
    if (values) values.push(line.slice(colon + 1).trim());
    else headers.set(name, [line.slice(colon + 1).trim()]);
  }
  return { headers, body };
}

function decodeQuotedPrintable(value: string): Buffer {
  const soft = value.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i], 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(entity: Entity): string {
  const encoding = (entity.headers.get('content-transfer-encoding')?.[0] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(entity.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(entity.body).toString('utf8');
  return entity.body;
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=), as nodemailer writes long or non-ASCII subjects. */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_match, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

function collectParts(entity: Entity, into: { text?: string; html?: string }): void {
  const type = entity.headers.get('content-type')?.[0] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const sections = entity.body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      collectParts(splitEntity(section.replace(/^\n/, '')), into);
    }
    return;
  }
  const decoded = decodeBody(entity).replace(/\n$/, '');
  if (/^text\/html/i.test(type)) into.html ??= decoded;
  else if (/^text\/plain/i.test(type)) into.text ??= decoded;
}

export function parseEmail(raw: string): ParsedEmail {
  const root = splitEntity(raw);
  const parts: { text?: string; html?: string } = {};
  collectParts(root, parts);
  const headers = new Map([...root.headers].map(([name, values]) => [name, values.map(decodeEncodedWords)]));
  return {
    headers,
    header: (name) => headers.get(name.toLowerCase())?.[0],
    subject: headers.get('subject')?.[0] ?? '',
    text: parts.text,
    html: parts.html,
  };
}
