import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { importsIn } from '../../core/plugins/plugin-checks.ts';
const API_FOLDER = path.join(projectRoot, 'core', 'plugin-api');
/** What the contract may name outside itself: the settings schema builder and the types of the frameworks a plugin is handed. */
const PACKAGES = [
  'typebox',
  'fastify',
  'knex',
  '@fastify/error',
  'intl-messageformat',
  '@formatjs/icu-messageformat-parser',
  'ajv',
  'ajv-formats',
  'node:fs',
  'node:path',
  'node:url',
];

/** Every module the contract reaches through relative imports, and every package named on the way. */
function closureOf(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of importsIn(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return { files: [...files].map((file) => path.relative(projectRoot, file)).sort(), packages: [...packages].sort() };
}

describe('the plugin contract depends on nothing internal', () => {
  const { files, packages } = closureOf(path.join(API_FOLDER, 'contract.ts'));

  it('reaches no module of core outside core/plugin-api/, and never the kit', () => {
    expect(files.filter((file) => !file.startsWith(`core${path.sep}plugin-api${path.sep}`))).toEqual([]);
    expect(files).not.toContain(path.join('core', 'plugin-api', 'kit.ts'));
    expect(files.length).toBeGreaterThan(10);
  });

  it('names no package but the schema builder and the frameworks a plugin is handed', () => {
    expect(packages.filter((name) => !PACKAGES.includes(name))).toEqual([]);
  });

  it('the walk sees an import that leaves the folder (a check that cannot fail is no check)', () => {
    // The kit does, on purpose: it wraps core's helpers.
    expect(closureOf(path.join(API_FOLDER, 'kit.ts')).files.some((file) => !file.startsWith(`core${path.sep}plugin-api${path.sep}`))).toBe(true);
  });
});
