import { describe, expect, it } from 'vitest';
import { parseJsonBody } from './json-body.ts';

describe('parseJsonBody', () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    ['[1,"x"]', [1, 'x']],
    ['{"proto":"fine","constructor":"a name"}', { proto: 'fine', constructor: 'a name' }],
  ])('parses %s', (text, value) => {
    expect(parseJsonBody(text)).toEqual({ ok: true, value });
  });

  it.each([
    ['', 'body is empty: send a JSON value, or no content-type'],
    ['  ', 'body is empty: send a JSON value, or no content-type'],
    ['{"a":', /^body is not valid JSON: /],
    ['{"displayName":"x","__proto__":{"admin":true}}', 'body/__proto__: this property name is not allowed'],
    ['{"filter":{"feeders":[{"__proto__":1}]}}', 'body/filter/feeders/0/__proto__: this property name is not allowed'],
    ['{"constructor":{"prototype":{"a":1}}}', 'body/constructor/prototype: this property name is not allowed'],
  ])('refuses %j', (text, message) => {
    const parsed = parseJsonBody(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(message);
  });

  it('never touches a prototype', () => {
    parseJsonBody('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
