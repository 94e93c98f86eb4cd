import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { intlLocale, SHIPPED_LOCALES } from '../i18n/index.ts';

/**
 * The platform's checks of one plugin folder that need no running service
 * (`npm run plugin:check`, and the same rules the project's own tests hold
 * its shipped plugins to). Each returns problems in words, naming the file.
 */

const IMPORT = /(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** What a module's source imports and re-exports (static and literal dynamic imports), as written. */
export const importsIn = (source: string): string[] => [...source.matchAll(IMPORT)].map((match) => (match[1] ?? match[2])!);

/** The .ts files under a folder, at any depth, node_modules and scratch (.tmp) folders left out. */
export const tsFiles = (dir: string) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (entry) =>
        entry.isFile() && entry.name.endsWith('.ts') && !entry.parentPath.includes(`${path.sep}node_modules`) && !entry.parentPath.includes(`${path.sep}.tmp`),
    )
    .map((entry) => path.join(entry.parentPath, entry.name));

/**
 * A plugin reaches core only through `#plugin-api`, and nothing outside
 * its folder by a relative path (another plugin, core's files). Packages
 * and Node's modules it may import.
 */
export function boundaryProblems(folder: string): string[] {
  const problems: string[] = [];
  const own = path.resolve(folder) + path.sep;
  for (const file of tsFiles(folder)) {
    const name = path.relative(folder, file);
    for (const specifier of importsIn(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('#') && specifier !== '#plugin-api') problems.push(`${name} imports ${specifier}: core is reached through #plugin-api only`);
      else if (specifier.startsWith('.') && !path.resolve(path.dirname(file), specifier).startsWith(own))
        problems.push(`${name} imports ${specifier}, outside its folder`);
      else if (specifier.startsWith('/')) problems.push(`${name} imports ${specifier} by an absolute path`);
    }
  }
  return problems;
}

type Element = { type: number; value?: unknown; options?: Record<string, { value: Element[] }> };

/** The arguments a pattern names (`{place}`, `{count, plural, …}`), sorted. Throws when it does not parse. */
export function argumentsOf(pattern: string, locale: string): string[] {
  const names = new Set<string>();
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      if (element.type !== 0 && element.type !== 7 && typeof element.value === 'string') names.add(element.value);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(pattern, locale).getAst() as unknown as Element[]);
  return [...names].sort();
}

/**
 * A plugin's `locales/` (when it has one): a file per shipped language,
 * each JSON of strings, with exactly English's keys, each message ICU
 * MessageFormat naming the arguments English names.
 */
export function localeProblems(folder: string): string[] {
  const dir = path.join(folder, 'locales');
  if (!existsSync(dir)) return [];
  const problems: string[] = [];
  const catalogs = new Map<string, Record<string, unknown>>();
  for (const { code } of SHIPPED_LOCALES) {
    const file = path.join(dir, `${code}.json`);
    if (!existsSync(file)) {
      problems.push(`locales/${code}.json is missing`);
      continue;
    }
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object of messages');
      catalogs.set(code, parsed as Record<string, unknown>);
    } catch (err) {
      problems.push(`locales/${code}.json does not parse: ${(err as Error).message}`);
    }
  }
  const english = catalogs.get('en');
  if (!english) return problems;
  for (const [code, messages] of catalogs) {
    for (const key of Object.keys(english)) if (!(key in messages)) problems.push(`locales/${code}.json has no "${key}"`);
    for (const [key, pattern] of Object.entries(messages)) {
      if (!(key in english)) problems.push(`locales/${code}.json has "${key}", which English does not`);
      else if (typeof pattern !== 'string') problems.push(`locales/${code}.json "${key}" is not a string`);
      else {
        try {
          const own = argumentsOf(pattern, intlLocale(code)).join(', ');
          const theirs = typeof english[key] === 'string' ? argumentsOf(english[key] as string, 'en').join(', ') : own;
          if (own !== theirs) problems.push(`locales/${code}.json "${key}" names {${own}}, English {${theirs}}`);
        } catch (err) {
          problems.push(`locales/${code}.json "${key}" is not ICU MessageFormat: ${(err as Error).message}`);
        }
      }
    }
  }
  return problems;
}
