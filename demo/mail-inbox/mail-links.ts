/** A link found in an email, with a short description for the mail inbox page. */
export interface MailLink {
  readonly url: string;
  readonly label: string;
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"'()]+[^\s<>"'().,;:!?]/g;

function labelOf(url: string, fromHeader: boolean): string {
  const path = new URL(url).pathname;
  if (path.endsWith('/verify')) return 'Confirm the subscription (verification link)';
  if (path.endsWith('/unsubscribe')) return fromHeader ? 'Unsubscribe (List-Unsubscribe header)' : 'Unsubscribe';
  return 'Link';
}

/**
 * The http(s) links of an email: those in its plain-text part, then those of
 * its List-Unsubscribe header, each once, in order.
 */
export function linksOfEmail(text: string, listUnsubscribe: string | undefined): MailLink[] {
  const found = new Map<string, MailLink>();
  const add = (url: string, fromHeader: boolean) => {
    try {
      if (!found.has(url)) found.set(url, { url, label: labelOf(url, fromHeader) });
    } catch {
      // Not a URL after all: leave it out.
    }
  };
  for (const match of text.matchAll(URL_IN_TEXT)) add(match[0], false);
  for (const match of (listUnsubscribe ?? '').matchAll(/<(https?:\/\/[^>\s]+)>/g)) add(match[1], true);
  return [...found.values()];
}
