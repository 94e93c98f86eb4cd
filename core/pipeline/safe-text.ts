import type { RenderedNotification } from '../plugin-api/feed-types.ts';
import { plainLines, singleLine } from '../plugin-api/user-text.ts';

/**
 * What every target, view and page is given of a rendering: a title of
 * one line and a body of plain lines, whatever a renderer let through
 * (control characters, bidirectional overrides, terminal escapes). Stored
 * so, and sent so, once for every output.
 */
export function safeText(rendered: RenderedNotification): RenderedNotification {
  return { ...rendered, title: singleLine(rendered.title), body: plainLines(rendered.body) };
}
