import { describe, expect, it } from 'vitest';
import Type from 'typebox';
import { defineFeedAnswer, FeedCount, FeedDate, FeedDateTime, FeedText } from './feed-answer.ts';
import { badText, checkAnswer, dropUnknown, foldLineBreaks, printableId } from './answer-check.ts';

const answer = defineFeedAnswer({
  list: 'outages',
  item: Type.Object({
    id: FeedText({ minLength: 1, maxLength: 50 }),
    areas: Type.Array(FeedText({ maxLength: 50 }), { maxItems: 5 }),
    timeOff: FeedDateTime(),
    date: Type.Optional(FeedDate()),
    customers: Type.Optional(Type.Union([FeedCount(), Type.Null()])),
    detail: Type.Optional(Type.Object({ note: FeedText() })),
  }),
  maxItems: 10,
});
const good = (patch: Record<string, unknown> = {}) => ({ id: 'A', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', ...patch });

describe('checkAnswer', () => {
  it('keeps good items in order and names none rejected', () => {
    const result = checkAnswer(answer, { outages: [good(), good({ id: 'B', customers: 12 })] });
    expect(result).toEqual({ ok: true, value: { items: [good(), good({ id: 'B', customers: 12 })], rejected: [] } });
  });

  it.each([
    ['a NUL in a string', good({ areas: ['Kan\u0000dy'] }), 'control-character', '/areas/0 holds a control character (U+0000)'],
    ['a vertical tab in the id', good({ id: 'A\u000bUID:evil' }), 'control-character', '/id holds a control character (U+000B)'],
    ['a form feed in an area', good({ areas: ['Kan\u000cdy'] }), 'control-character', '/areas/0 holds a control character (U+000C)'],
    ['a line separator', good({ areas: ['a\u2028b'] }), 'control-character', '/areas/0 holds a control character (U+2028)'],
    ['a C1 control', good({ id: 'A\u0085' }), 'control-character', '/id holds a control character (U+0085)'],
    ['a lone surrogate', good({ areas: ['\ud800'] }), 'malformed-unicode', '/areas/0 holds a lone UTF-16 surrogate'],
    ['a count past a PostgreSQL integer', good({ customers: 3_000_000_000 }), 'number-out-of-range', '/customers is out of range: it must be <= 2147483647'],
    ['a negative count', good({ customers: -1 }), 'number-out-of-range', '/customers is out of range: it must be >= 0'],
    ['year 0000', good({ timeOff: '0000-01-01T00:00:00Z' }), 'date-out-of-range', '/timeOff is a date outside the years 1900–9999'],
    ['year 1899', good({ date: '1899-12-31' }), 'date-out-of-range', '/date is a date outside the years 1900–9999'],
    ['a time without an offset', good({ timeOff: '2026-11-22T08:15:00' }), 'invalid', '/timeOff must be a date and time with its offset (RFC 3339)'],
    ['a wrong type', good({ areas: 'Kandy' }), 'invalid', '/areas must be array'],
    ['nesting deeper than the schema', good({ areas: [['Kandy']] }), 'invalid', '/areas/0 must be string'],
    ['a missing field', { id: 'A', areas: [] }, 'invalid', "(the item) must have required property 'timeOff'"],
    ['no object at all', 'PO-1', 'invalid', '(the item) must be object'],
  ])('leaves out an item with %s, alone', (_name, bad, reason, detail) => {
    const result = checkAnswer(answer, { outages: [good({ id: 'first' }), bad, good({ id: 'last' })] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.items.map((item) => item.id)).toEqual(['first', 'last']);
    expect(result.value.rejected).toEqual([{ id: printableId(bad), index: 1, reason, detail }]);
  });

  it('keeps an item whose text has line breaks or tabs, each run of them one space', () => {
    const result = checkAnswer(answer, { outages: [good({ id: 'A\r\nB', areas: ['Kandy\tNorth', 'Galle'], detail: { note: 'Fallen tree\n\non the line' } })] });
    expect(result).toEqual({
      ok: true,
      value: { items: [good({ id: 'A B', areas: ['Kandy North', 'Galle'], detail: { note: 'Fallen tree on the line' } })], rejected: [] },
    });
  });

  it('leaves out the second item of an id and keeps the first', () => {
    const result = checkAnswer(answer, { outages: [good({ areas: ['first'] }), good({ areas: ['second'] })] });
    expect(result.ok && result.value.items).toEqual([good({ areas: ['first'] })]);
    expect(result.ok && result.value.rejected).toEqual([{ id: 'A', index: 1, reason: 'duplicate-id', detail: 'the id came earlier in this answer' }]);
  });

  it('drops fields the schema does not name before anything else: a NUL or deep nesting there costs nothing', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 5000; i += 1) deep = { deeper: deep };
    const result = checkAnswer(answer, { outages: [good({ extra: 'x\u0000y', deep, detail: { note: 'n', more: 1 } })], generatedBy: 'someone' });
    expect(result).toEqual({ ok: true, value: { items: [good({ detail: { note: 'n' } })], rejected: [] } });
  });

  it.each([
    ['not an object', [1, 2], '(root) must be a JSON object'],
    ['no list', { items: [] }, '/outages must be an array'],
    ['too many items', { outages: Array.from({ length: 11 }, (_, i) => good({ id: `x${i}` })) }, '/outages lists 11 items, more than the 10 allowed'],
  ])('fails the whole answer when it is %s', (_name, data, error) => {
    expect(checkAnswer(answer, data)).toEqual({ ok: false, error });
  });
});

describe('the pieces', () => {
  it('dropUnknown never copies __proto__ or anything unnamed', () => {
    const raw = JSON.parse('{"id":"A","__proto__":{"polluted":true},"areas":[]}');
    const kept = dropUnknown(answer.item as never, raw) as Record<string, unknown>;
    expect(Object.keys(kept)).toEqual(['id', 'areas']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('badText looks at property names too, and lets tabs not through', () => {
    expect(badText({ a: ['ok', 'tab\there'] })).toEqual({ path: '/a/1', reason: 'control-character', char: 'U+0009' });
    expect(badText({ a: 'Stromausfall – ශ්‍රී 🌩️' })).toBeNull();
  });

  it('printableId makes an id one short line', () => {
    expect(printableId({ id: 'PO\r\n1' })).toBe('PO\uFFFD\uFFFD1');
    expect(printableId({ id: 'x'.repeat(100) })).toHaveLength(64);
    expect(printableId({ id: 42 })).toBe('42');
    expect(printableId({})).toBeNull();
  });
});

describe('foldLineBreaks', () => {
  it.each([
    ['a line feed', 'two\nlines', 'two lines'],
    ['CR LF', 'two\r\nlines', 'two lines'],
    ['a run of them', 'a\r\n\r\n\tb', 'a b'],
    ['a tab', 'tab\there', 'tab here'],
    ['spaces round a break stay', 'a \n b', 'a   b'],
    ['at the ends', '\nedge\n', ' edge '],
    ['none', 'one line', 'one line'],
    ['a vertical tab is no line break', 'a\u000bb', 'a\u000bb'],
    ['nor a next-line control', 'a\u0085b', 'a\u0085b'],
    ['nor a line separator', 'a\u2028b', 'a\u2028b'],
  ])('%s', (_name, text, folded) => {
    expect(foldLineBreaks(text)).toBe(folded);
  });

  it('folds every string at any depth, leaves other values, and changes nothing it was given', () => {
    const given = { a: ['x\ny', { b: 'p\tq', n: 3, t: true, z: null }], c: 'one' };
    expect(foldLineBreaks(given)).toEqual({ a: ['x y', { b: 'p q', n: 3, t: true, z: null }], c: 'one' });
    expect(given.a[0]).toBe('x\ny');
  });
});
