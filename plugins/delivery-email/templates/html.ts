import { plainLines, withoutControls } from '#plugin-api';

/** HTML text from untrusted strings (feed data, display names): every value passes through here. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Safe in element content and in quoted attribute values; control characters and bidirectional overrides do not survive. */
export function escapeHtml(value: string): string {
  return withoutControls(value).replace(/[&<>"']/g, (char) => ENTITIES[char]);
}

// "Feeder: F12" → the label in bold; a colon later in a sentence is left alone.
const FACT = /^([^:]{1,24}):\s(.*)$/;

/** A link to this service's own pages (`<base>/…` up to the next space): the only URLs a body's HTML makes links of. */
function ownLinks(html: string, base: string | undefined): string {
  if (!base) return html;
  const escapedBase = escapeHtml(base.replace(/\/+$/, ''));
  return html.replace(
    new RegExp(`${escapedBase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[^\\s<>"']*`, 'g'),
    (url) => `<a href="${url}" style="color:#1d4ed8;word-break:break-all">${url}</a>`,
  );
}

/**
 * A renderer's multi-line body as HTML: one line per line, a blank line a
 * paragraph break, and `Label: value` lines with the label in bold. Every
 * piece is escaped before it is wrapped; a URL of this service (`ownBase`,
 * PublicBaseUrl: the "still out?" link a restoration carries) becomes a
 * link, no other.
 */
export function bodyHtml(body: string, ownBase?: string): string {
  const paragraphs = plainLines(body).split(/\n\s*\n/);
  return paragraphs
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => {
          const fact = FACT.exec(line);
          return ownLinks(fact ? `<strong>${escapeHtml(fact[1])}:</strong> ${escapeHtml(fact[2])}` : escapeHtml(line), ownBase);
        })
        .join('<br />'),
    )
    .map((html) => `<p style="margin:0 0 12px 0">${html}</p>`)
    .join('');
}
