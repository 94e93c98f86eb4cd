import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { StoredNotificationEvent } from '../plugin-api/public-views.ts';
import { renderAtom, type AtomDocumentOptions } from './atom-document.ts';

const event = (id: number, title: string, body: string): StoredNotificationEvent => ({
  id,
  feedId: 'utility.power-outages',
  eventType: 'NewOutage',
  sourceKey: `PO-${id}`,
  itemKey: `PO-${id}`,
  fields: {},
  sourcePayload: null,
  rendered: { title, body, sequenceId: `po-${id}`, tags: [], priority: 'High' },
  createdAt: new Date(`2026-11-22T0${id}:00:00Z`),
});
const options: AtomDocumentOptions = {
  selfUrl: 'https://alerts.example.org/api/notification-feeds/utility.power-outages/atom.xml?areas=Kandy&feeders=F1',
  title: 'Power outages',
  hostname: 'alerts.example.org',
  capUrl: (id) => `https://alerts.example.org/api/notification-events/${id}/cap.xml`,
};
const parse = (xml: string) =>
  new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => name === 'entry' || name === 'link' }).parse(xml).feed as {
    id: string;
    updated: string;
    author: { name: string };
    link: Array<Record<string, string>>;
    entry?: Array<{ id: string; updated: string; title: { '#text': string }; content: { '#text': string }; link: Array<Record<string, string>> }>;
  };

describe('renderAtom', () => {
  it('gives each entry a stable tag id, its time, and a typed alternate link to its CAP document', () => {
    const feed = parse(renderAtom([event(2, 'Power restored: Kandy', 'Feeder: F12'), event(1, 'Power outage: Kandy', 'Feeder: F12')], options));
    expect(feed.id).toBe(options.selfUrl);
    expect(feed.link).toEqual([{ '@_rel': 'self', '@_href': options.selfUrl }]);
    expect(feed.updated).toBe('2026-11-22T02:00:00.000Z');
    expect(feed.author).toEqual({ name: 'alerts.example.org' });
    expect(feed.entry!.map((entry) => [entry.id, entry.updated, entry.link])).toEqual([
      [
        'tag:alerts.example.org,2026-11-22:notification-events/2',
        '2026-11-22T02:00:00.000Z',
        [{ '@_rel': 'alternate', '@_type': 'application/cap+xml', '@_href': options.capUrl(2) }],
      ],
      [
        'tag:alerts.example.org,2026-11-22:notification-events/1',
        '2026-11-22T01:00:00.000Z',
        [{ '@_rel': 'alternate', '@_type': 'application/cap+xml', '@_href': options.capUrl(1) }],
      ],
    ]);
  });

  it('keeps stored text inert: markup escaped as HTML text, CDATA ends neutralised, control characters replaced', () => {
    const xml = renderAtom([event(1, 'Cut <b>here</b> & "there" ]]> twice ]]>', 'Line one\nLine ]]><evil/> two\u0001')], options);
    expect(XMLValidator.validate(xml)).toBe(true);
    const [entry] = parse(xml).entry!;
    expect(entry.title['#text']).toBe('Cut &lt;b&gt;here&lt;/b&gt; &amp; &quot;there&quot; ]]&gt; twice ]]&gt;');
    expect(entry.content['#text']).toBe('Line one<br/>\nLine ]]&gt;&lt;evil/&gt; two\uFFFD');
  });

  it('is valid and stable with no events (updated: the epoch, not "now")', () => {
    const xml = renderAtom([], options);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parse(xml)).toMatchObject({ updated: '1970-01-01T00:00:00.000Z' });
    expect(parse(xml).entry).toBeUndefined();
    expect(renderAtom([], options)).toBe(xml);
  });
});
