import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';

const IMPORT = /(?:^|\n)\s*(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => match[1] ?? match[2]);
}

/** Plugins reach core only through #plugin-api, never another plugin (their tests may use test/); core never imports a plugin. */
function boundaryViolations(): string[] {
  const violations: string[] = [];
  const pluginsDir = path.join(projectRoot, 'plugins');
  for (const file of tsFiles(pluginsDir)) {
    const ownFolder = path.join(pluginsDir, path.relative(pluginsDir, file).split(path.sep)[0]);
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('#') && specifier !== '#plugin-api') violations.push(`${path.relative(projectRoot, file)} imports ${specifier}`);
      if (!specifier.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), specifier);
      // Tests beside a plugin may also use the shared test doubles and helpers.
      const testSupport = file.endsWith('.test.ts') && target.startsWith(path.join(projectRoot, 'test') + path.sep);
      if (!target.startsWith(ownFolder + path.sep) && !testSupport) violations.push(`${path.relative(projectRoot, file)} imports ${specifier} outside its folder`);
    }
  }
  for (const file of tsFiles(path.join(projectRoot, 'core'))) {
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('.') && path.resolve(path.dirname(file), specifier).startsWith(pluginsDir)) {
        violations.push(`${path.relative(projectRoot, file)} imports plugin code ${specifier}`);
      }
    }
  }
  return violations;
}

describe('architecture', () => {
  it('plugins import only #plugin-api and their own folder; core imports no plugin', () => {
    expect(boundaryViolations()).toEqual([]);
  });

  it('the import scan sees imports (a check that cannot fail is no check)', () => {
    expect(importsOf(path.join(projectRoot, 'plugins', 'utility-power-outages', 'index.ts'))).toContain('#plugin-api');
  });
});
