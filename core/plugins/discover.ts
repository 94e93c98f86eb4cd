import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Errors } from '../errors.ts';
import type { PluginRoot } from '../paths.ts';
import type { PluginManifest } from '../plugin-api/manifest.ts';
import { resolvePluginApiEverywhere } from './plugin-api-resolution.ts';
import { validateManifest } from './validate-manifest.ts';

export interface DiscoveredPlugin {
  folder: string;
  dir: string;
  manifest: PluginManifest;
}

/** A folder named in PLUGINS_DIR that is missing, or holds no plugin: the start stops naming it. */
export class PluginRootError extends Error {}

/**
 * Finds every plugin folder (one with an index.ts) of the roots, in order:
 * each root a folder of plugin folders, or one plugin's own folder. Each is
 * imported (a plugin runs nothing on import) and its `manifest` export
 * validated. Any problem stops the start with an error naming the folder,
 * and so does a root someone named that is missing or holds no plugin, or
 * two folders of the same name.
 */
export async function discoverPlugins(roots: string | readonly PluginRoot[]): Promise<DiscoveredPlugin[]> {
  resolvePluginApiEverywhere();
  const found: DiscoveredPlugin[] = [];
  for (const root of typeof roots === 'string' ? [{ dir: roots }] : roots) {
    for (const dir of pluginFolders(root)) {
      const folder = path.basename(dir);
      const twin = found.find((plugin) => plugin.folder === folder);
      if (twin) throw new Errors.PluginManifestInvalid(folder, `is installed twice (${twin.dir} and ${dir}): remove one`);
      found.push(await loadPlugin(folder, dir));
    }
  }
  return found;
}

/** The plugin folders of one root, by name. */
function pluginFolders(root: PluginRoot): string[] {
  if (!existsSync(root.dir)) {
    if (root.namedBy) throw new PluginRootError(`${root.namedBy}: ${root.dir} does not exist`);
    return [];
  }
  if (existsSync(path.join(root.dir, 'index.ts'))) return [root.dir];
  const folders = readdirSync(root.dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !entry.name.startsWith('_') && entry.name !== 'node_modules')
    .map((entry) => path.join(root.dir, entry.name))
    .sort();
  if (root.namedBy && !folders.some((dir) => existsSync(path.join(dir, 'index.ts')))) {
    throw new PluginRootError(`${root.namedBy}: ${root.dir} holds no plugin (no folder in it, nor it, has an index.ts)`);
  }
  return folders;
}

async function loadPlugin(folder: string, dir: string): Promise<DiscoveredPlugin> {
  const indexFile = path.join(dir, 'index.ts');
  if (!existsSync(indexFile)) throw new Errors.PluginManifestInvalid(folder, 'has no index.ts');
  let mod: Record<string, unknown>;
  try {
    mod = await import(pathToFileURL(indexFile).href);
  } catch (cause) {
    throw new Errors.PluginManifestInvalid(folder, `index.ts failed to load: ${(cause as Error).message}`, { cause });
  }
  const problems = validateManifest(folder, mod.manifest);
  if (problems.length > 0) throw new Errors.PluginManifestInvalid(folder, problems.join('; '));
  return { folder, dir, manifest: mod.manifest as PluginManifest };
}
