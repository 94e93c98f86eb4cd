// Characters XML 1.0 does not allow in a document (C0 controls but tab, LF
// and CR; U+FFFE and U+FFFF), and lone surrogates, which no XML encoder can
// write. Stored text comes from the utility's feed and admins: it is cleaned
// here rather than trusted.
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text as an XML document may hold it: disallowed characters replaced by U+FFFD, which keeps the gap visible. */
export function xmlSafe(text: string): string {
  return text.toWellFormed().replace(NOT_XML_CHAR, '\uFFFD');
}

/** Plain text as HTML (Atom `type="html"`): escaped, line breaks kept. */
export function plainTextAsHtml(text: string): string {
  return xmlSafe(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\r?\n/g, '<br/>\n');
}
