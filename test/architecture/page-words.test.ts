import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { loadMessages, SHIPPED_LOCALES } from '../../core/plugin-api/messages.ts';

/** The pages' and the console's scripts and documents. */
const FOLDERS = [path.join(projectRoot, 'core', 'web', 'static'), path.join(projectRoot, 'core', 'console', 'web')];
const files = FOLDERS.flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.js') || name.endsWith('.html'))
    .map((name) => path.join(dir, name)),
);

/** A quoted string literal of a script, its escapes read. */
const unquote = (literal: string) => literal.slice(1, -1).replace(/\\(.)/g, '$1');

/** Every page word a script or document names, with the English it gives where it gives one. */
function wordsUsed(): Array<{ file: string; key: string; english: string | null }> {
  const used: Array<{ file: string; key: string; english: string | null }> = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const name = path.relative(projectRoot, file);
    for (const match of text.matchAll(/\b(?:pageWord|readerWords|w|words)\(\s*'(page\.[\w.]+)'\s*,\s*('(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*")/g)) {
      used.push({ file: name, key: match[1]!, english: unquote(match[2]!) });
    }
    for (const match of text.matchAll(/data-i18n(?:-label)?="(page\.[\w.]+)"|'data-i18n', '(page\.[\w.]+)'/g)) {
      used.push({ file: name, key: (match[1] ?? match[2])!, english: null });
    }
  }
  return used;
}

const catalog = loadMessages(path.join(projectRoot, 'core', 'i18n', 'locales'));
const english = catalog.get('en') ?? {};
const placeholders = (text: string) => [...new Set(text.match(/@[A-Za-z]+/g) ?? [])].sort();

/**
 * No page word lands untranslated: each one the pages or the console name is
 * in core's messages (so every language has it, the locales check sees to
 * that), with the very English the code falls back to, and each language
 * keeps its `@name` placeholders.
 */
describe("the pages' words", () => {
  const used = wordsUsed();

  it('are found in the scripts and documents (the check reads something)', () => {
    expect(used.length).toBeGreaterThan(200);
  });

  it("each is in core's English messages, with the English the code gives", () => {
    const problems = used.flatMap(({ file, key, english: given }) =>
      !(key in english)
        ? [`${file}: ${key} is in no message file`]
        : given !== null && given !== english[key]
          ? [`${file}: ${key} says "${given}" in code but "${english[key]}" in en.json`]
          : [],
    );
    expect(problems).toEqual([]);
  });

  it.each(SHIPPED_LOCALES.map((locale) => locale.code).filter((code) => code !== 'en'))('%s keeps the @placeholders of each page word', (code) => {
    const own = catalog.get(code) ?? {};
    const problems = Object.entries(english)
      .filter(([key]) => key.startsWith('page.'))
      .filter(([key, text]) => JSON.stringify(placeholders(own[key] ?? '')) !== JSON.stringify(placeholders(text)))
      .map(([key]) => key);
    expect(problems).toEqual([]);
  });
});
