import { describe, expect, it } from 'vitest';
import type { RenderedNotification } from '#plugin-api';
import { BODY_LIMIT_BYTES, MESSAGE_LIMIT_BYTES, buildPublishBody, priorityLevel, sequenceIdFor, truncateUtf8 } from './publish-payload.ts';

const SEQUENCE_ID = /^[-_A-Za-z0-9]{1,64}$/;
const bytes = (text: string) => Buffer.byteLength(text);
const rendered = (over: Partial<RenderedNotification> = {}): RenderedNotification => ({
  title: 'Power outage: Kandy',
  body: 'Feeder: F12',
  sequenceId: 'po-PO-1001',
  tags: ['warning'],
  priority: 'High',
  ...over,
});

describe('truncateUtf8', () => {
  it('leaves text within the limit as it is', () => {
    expect(truncateUtf8('héllo', 6)).toBe('héllo');
  });

  it.each([
    ['ASCII', 'a'.repeat(5000)],
    ['2-byte characters', 'é'.repeat(3000)],
    ['3-byte characters', '€'.repeat(2000)],
    ['4-byte characters (surrogate pairs)', '😀'.repeat(1500)],
    ['mixed, cut point inside a character', `a${'😀'.repeat(1200)}${'é'.repeat(900)}`],
  ])('cuts %s to the limit, whole characters, ending with an ellipsis', (_name, text) => {
    for (const limit of [4096, 4095, 4094, 4093, 100]) {
      const cut = truncateUtf8(text, limit);
      expect(bytes(cut)).toBeLessThanOrEqual(limit);
      expect(bytes(cut)).toBeGreaterThan(limit - 7); // at most one character and the ellipsis short
      expect(cut.endsWith('…')).toBe(true);
      expect(cut).not.toContain('\uFFFD');
      expect(text.startsWith(cut.slice(0, -1))).toBe(true);
    }
  });

  it('gives an empty text when not even the ellipsis fits', () => {
    expect(truncateUtf8('abcdef', 2)).toBe('');
  });
});

describe('buildPublishBody with text from outside', () => {
  it.each([
    ['a line break', 'Power outage\r\nX-Forged: 1', 'Power outage X-Forged: 1'],
    ['a terminal escape', 'Power outage \u001b[31mred\u001b[0m', 'Power outage [31mred [0m'],
    ['a right-to-left override', 'Invoice\u202egpj.exe', 'Invoicegpj.exe'],
    ['a line separator and a C1 control', 'a\u2028b\u0085c', 'a b c'],
  ])('keeps a title with %s to one clean line', (_name, title, expected) => {
    expect(buildPublishBody('alerts-x', 'utility.power-outages', rendered({ title }), 'PO-1').title).toBe(expected);
  });

  it("keeps the message's own lines and removes every other control character", () => {
    const body = buildPublishBody('alerts-x', 'utility.power-outages', rendered({ body: 'Feeder: F1\r\nAreas: Kandy\u001b[2J\u202e' }), 'PO-1');
    expect(body.message).toBe('Feeder: F1\nAreas: Kandy[2J');
  });
});

describe('priorityLevel', () => {
  it.each([
    ['Min', 1],
    ['Low', 2],
    ['Default', 3],
    ['High', 4],
    ['Urgent', 5],
  ] as const)('%s → %i', (name, level) => {
    expect(priorityLevel(name)).toBe(level);
  });
});

describe('sequenceIdFor', () => {
  it('keeps a renderer id the server accepts', () => {
    expect(sequenceIdFor('utility.power-outages', 'po-PO-1001')).toBe('po-PO-1001');
  });

  it.each([['po-PO 1001/ä'], ['x'.repeat(65)], ['a.b'], ['']])('hashes %j into a valid, stable id', (id) => {
    const sid = sequenceIdFor('utility.power-outages', id);
    expect(sid).toMatch(SEQUENCE_ID);
    expect(sid.length).toBeGreaterThanOrEqual(23);
    expect(sequenceIdFor('utility.power-outages', id)).toBe(sid);
    expect(sequenceIdFor('utility.scheduled-outages', id)).not.toBe(sid);
  });

  it('does not merge ids that a character rewrite would merge', () => {
    expect(sequenceIdFor('f', 'a.b')).not.toBe(sequenceIdFor('f', 'a:b'));
  });
});

describe('buildPublishBody', () => {
  it('maps the rendering onto the JSON publish fields', () => {
    expect(buildPublishBody('utility-power-outages', 'utility.power-outages', rendered(), 'PO-1001')).toEqual({
      topic: 'utility-power-outages',
      title: 'Power outage: Kandy',
      message: 'Feeder: F12',
      priority: 4,
      tags: ['warning'],
      sequence_id: 'po-PO-1001',
    });
  });

  it('falls back to the item key when the rendering has no sequence id', () => {
    const body = buildPublishBody('t', 'utility.power-outages', rendered({ sequenceId: '' }), 'PO-1001');
    expect(body.sequence_id).toBe('PO-1001');
  });

  it('cuts the message to 4096 bytes', () => {
    const body = buildPublishBody('t', 'f', rendered({ body: 'é'.repeat(5000) }), 'k');
    expect(bytes(body.message)).toBeLessThanOrEqual(MESSAGE_LIMIT_BYTES);
    expect(body.message.endsWith('…')).toBe(true);
  });

  it('keeps the whole JSON body within 8192 bytes when escaping doubles the text', () => {
    const body = buildPublishBody('t', 'f', rendered({ title: '"'.repeat(3000), body: '"\n'.repeat(3000) }), 'k');
    expect(bytes(JSON.stringify(body))).toBeLessThanOrEqual(BODY_LIMIT_BYTES);
    expect(body.message.endsWith('…')).toBe(true);
  });
});

describe('buildPublishBody: worst-case escaping', () => {
  it.each([
    ['control characters (6 bytes each as \\u00XX)', '\u0001'.repeat(4096)],
    ['a short text just past the fast path', '\u0001'.repeat(1300)],
    ['many tags', 'x'],
  ])('keeps the body within 8192 bytes: %s', (_name, text) => {
    const tags = text === 'x' ? Array.from({ length: 300 }, (_, i) => `tag${i}`) : ['warning'];
    const body = buildPublishBody('t'.repeat(64), 'f', rendered({ title: text.slice(0, 1024), body: text, tags, sequenceId: 's'.repeat(64) }), 'k');
    expect(bytes(JSON.stringify(body))).toBeLessThanOrEqual(BODY_LIMIT_BYTES);
  });
});
