import { Feed } from 'feed';
import type { StoredNotificationEvent } from '../plugin-api/public-views.ts';
import { plainTextAsHtml, xmlSafe } from './xml-text.ts';

export const ATOM_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';
const CAP_LINK_TYPE = 'application/cap+xml';

export interface AtomDocumentOptions {
  /** Absolute URL of this document (with its query): the feed's id and rel="self" link. */
  readonly selfUrl: string;
  readonly title: string;
  /** Host name of PublicBaseUrl, for the entries' tag URIs. */
  readonly hostname: string;
  readonly capUrl: (eventId: number) => string;
}

/** A stable entry id (RFC 4151 tag URI): the service's host, the event's creation date and its id. */
const entryId = (hostname: string, event: StoredNotificationEvent) =>
  `tag:${hostname},${event.createdAt.toISOString().slice(0, 10)}:notification-events/${event.id}`;

/**
 * Atom 1.0 of events, newest first, written by `feed`. Titles and bodies
 * are plain text: they are escaped and given as type="html", so no stored
 * text can end the CDATA section `feed` wraps them in. `feed` links an
 * entry without a type; the link to the CAP document then gets its
 * rel="alternate" and type="application/cap+xml" here, and a change of the
 * library's output that this no longer matches fails loudly.
 */
export function renderAtom(events: readonly StoredNotificationEvent[], options: AtomDocumentOptions): string {
  const feed = new Feed({
    id: options.selfUrl,
    title: xmlSafe(options.title),
    feedLinks: { atom: options.selfUrl },
    // RFC 4287 wants an author on the feed when its entries name none: the service, by its host.
    author: { name: options.hostname },
    // With no events the feed was never updated: the epoch, so the document (and its ETag) stays stable.
    updated: events[0]?.createdAt ?? new Date(0),
    generator: false,
  });
  for (const event of events) {
    feed.addItem({
      id: entryId(options.hostname, event),
      title: plainTextAsHtml(event.rendered.title),
      link: options.capUrl(event.id),
      date: event.createdAt,
      content: plainTextAsHtml(event.rendered.body),
    });
  }
  let typed = 0;
  const xml = feed.atom1().replace(/<link href="([^"]+\/cap\.xml)"\/>/g, (_link, href: string) => {
    typed += 1;
    return `<link rel="alternate" type="${CAP_LINK_TYPE}" href="${href}"/>`;
  });
  if (typed !== events.length) throw new Error(`Atom: typed ${typed} CAP links for ${events.length} entries (did the feed library change its output?)`);
  return xml;
}
