import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../core/paths.ts';
import { installedPluginFolders, SHIPPED_PLUGINS } from '../helpers/shipped-plugins.ts';

/** The tracked plugin folders of this checkout, or null outside a git work tree (a scratch copy). */
function trackedPluginFolders(): string[] | null {
  try {
    const files = execFileSync('git', ['ls-files', 'plugins'], { cwd: projectRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return [
      ...new Set(
        files
          .split('\n')
          .filter(Boolean)
          .map((file) => file.split('/')[1]),
      ),
    ].sort();
  } catch {
    return null;
  }
}

describe('the shipped plugins', () => {
  const tracked = trackedPluginFolders();

  it.skipIf(tracked === null)('are the plugin folders the repository tracks (a shipped plugin added to plugins/ is added to SHIPPED_PLUGINS)', () => {
    expect([...SHIPPED_PLUGINS]).toEqual(tracked);
  });

  it('are all installed, beside whatever was dropped in', () => {
    expect(installedPluginFolders()).toEqual(expect.arrayContaining([...SHIPPED_PLUGINS]));
  });
});

describe('the shipped plugins, as examples of the contract', () => {
  it('use none of its deprecated forms (a plugin author copies what ships)', async () => {
    const { deprecationsOf } = await import('../../core/plugins/deprecations.ts');
    const found: string[] = [];
    for (const folder of SHIPPED_PLUGINS) {
      const { manifest } = await import(`../../plugins/${folder}/index.ts`);
      for (const note of deprecationsOf(manifest)) found.push(`${folder}: ${note}`);
    }
    expect(found).toEqual([]);
  });
});
