/**
 * Text that came from a user or a feed, made safe to show (pure). Control
 * characters (C0, DEL, C1, line and paragraph separators) could start a
 * line or a header of their own; bidirectional overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069) make a name read differently from what it
 * is (`Invoice\u202Egpj.exe` shows as `Invoiceexe.jpg`). Arabic or Hebrew
 * text, and the marks that order it (U+200E, U+200F), are left alone.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_AND_BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const CONTROLS_BUT_LINE_FEED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
const LINE_BREAKS = /\r\n?|[\u0085\u2028\u2029]/g;

export function stripBidiControls(value: string): string {
  return value.replace(BIDI_CONTROLS, '');
}

/** Bidirectional controls removed, every other control character and line break a space: for HTML text and attributes. */
export function withoutControls(value: string): string {
  return stripBidiControls(value).replace(CONTROLS_AND_BREAKS, ' ');
}

/** One line (a name, a subject, a title in a text email): as withoutControls, runs of spaces collapsed, trimmed. */
export function singleLine(value: string): string {
  return withoutControls(value).replace(/ {2,}/g, ' ').trim();
}

/** Text of several lines (a body): line breaks become `\n`, other control characters and bidirectional controls are removed. */
export function plainLines(value: string): string {
  return stripBidiControls(value).replace(LINE_BREAKS, '\n').replace(CONTROLS_BUT_LINE_FEED, '');
}
