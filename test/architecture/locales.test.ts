import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { intlLocale, loadMessages, SHIPPED_LOCALES as LOCALES } from '../../core/plugin-api/messages.ts';
import { argumentsOf } from '../../core/plugins/plugin-checks.ts';

/** Every folder of message files: core's and each shipped plugin's. */
const folders = [
  path.join(projectRoot, 'core', 'i18n', 'locales'),
  ...readdirSync(path.join(projectRoot, 'plugins'))
    .map((plugin) => path.join(projectRoot, 'plugins', plugin, 'locales'))
    .filter((dir) => existsSync(dir)),
];
const SCRIPTS: Record<string, RegExp> = { si: /[\u0D80-\u0DFF]/, ta: /[\u0B80-\u0BFF]/ };
describe.each(folders.map((dir) => [path.relative(projectRoot, dir), dir]))('messages of %s', (_name, dir) => {
  const catalog = loadMessages(dir);
  const english = catalog.get('en') ?? {};

  it('has a file for every shipped language and English has messages', () => {
    expect([...catalog.keys()].sort()).toEqual(LOCALES.map((locale) => locale.code).sort());
    expect(Object.keys(english).length).toBeGreaterThan(0);
  });

  it.each(LOCALES.map((locale) => locale.code))('%s has every key English has, and no other', (code) => {
    expect(Object.keys(catalog.get(code) ?? {}).sort()).toEqual(Object.keys(english).sort());
  });

  it.each(LOCALES.map((locale) => locale.code))('%s: every message parses as ICU MessageFormat and names the arguments English names', (code) => {
    for (const [key, pattern] of Object.entries(catalog.get(code) ?? {})) {
      expect(() => new IntlMessageFormat(pattern, intlLocale(code)), `${code} ${key}`).not.toThrow();
      expect(argumentsOf(pattern, intlLocale(code)), `${code} ${key}`).toEqual(argumentsOf(english[key], 'en'));
    }
  });

  it.each(Object.keys(SCRIPTS))('%s is written in its own script (a message that is only its arguments excepted)', (code) => {
    for (const [key, pattern] of Object.entries(catalog.get(code) ?? {})) {
      // Arguments: ICU's {name}, and the pages' @name.
      const words = pattern
        .replace(/\{[^{}]*\}/g, '')
        .replace(/@[A-Za-z]+/g, '')
        .replace(/[\s\p{P}\p{S}\d]/gu, '');
      if (words !== '') expect(pattern, `${code} ${key}`).toMatch(SCRIPTS[code]);
    }
  });
});
