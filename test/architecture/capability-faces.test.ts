import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { importsIn, tsFiles } from '../../core/plugins/plugin-checks.ts';
const core = path.join(projectRoot, 'core');

/** The capabilities with a face: each one folder, found by its name, entered through its index.ts. */
const CAPABILITIES = ['delivery', 'hold', 'i18n', 'ledger', 'matching', 'places'];

function sourceFiles(): string[] {
  return ['core', 'plugins', 'demo', 'bench', 'test'].flatMap((top) => tsFiles(path.join(projectRoot, top)));
}

/** Files outside a capability's folder that import one of its files other than its face. */
function backDoors(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles()) {
    for (const specifier of importsIn(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), specifier);
      for (const capability of CAPABILITIES) {
        const folder = path.join(core, capability) + path.sep;
        if (target.startsWith(folder) && !file.startsWith(folder) && target !== path.join(folder, 'index.ts'))
          found.push(`${path.relative(projectRoot, file)} imports ${specifier}`);
      }
    }
  }
  return found;
}

describe('capability folders', () => {
  it('each has its face, an index.ts', () => {
    expect(CAPABILITIES.filter((capability) => !existsSync(path.join(core, capability, 'index.ts')))).toEqual([]);
  });

  it('are entered through their face only, from core, plugins, the demo, benchmarks and tests alike', () => {
    expect(backDoors()).toEqual([]);
  });
});
