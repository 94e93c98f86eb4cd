import { describe, expect, it } from 'vitest';
import { pageLanguage } from './static/form-values.js';

describe('pageLanguage: the language a page is shown in', () => {
  it.each<[string, string | null, string[], string]>([
    ["the reader's own choice wins", 'si', ['ta-IN', 'en'], 'si'],
    ["else the browser's first language the service writes (its Accept-Language order)", null, ['fr', 'ta-IN', 'si'], 'ta'],
    ['a stored choice no longer offered is ignored', 'fr', ['si-LK'], 'si'],
    ['English when nothing matches', null, ['de'], 'en'],
  ])('%s', (_case, stored, browser, expected) => {
    expect(pageLanguage(stored, browser, ['en', 'si', 'ta'], 'en')).toBe(expected);
  });
});
