import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Errors } from '../errors.ts';
import type { PluginManifest } from '../plugin-api/manifest.ts';
import { resolvePluginApiEverywhere } from './plugin-api-resolution.ts';
import { validateManifest } from './validate-manifest.ts';

export interface DiscoveredPlugin {
  folder: string;
  dir: string;
  manifest: PluginManifest;
}

/**
 * Finds every folder under `pluginsDir` with an index.ts, imports it (a
 * plugin runs nothing on import) and validates its `manifest` export. Any
 * problem stops the start with an error naming the folder.
 */
export async function discoverPlugins(pluginsDir: string): Promise<DiscoveredPlugin[]> {
  if (!existsSync(pluginsDir)) return [];
  resolvePluginApiEverywhere();
  const folders = readdirSync(pluginsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !entry.name.startsWith('_'))
    .map((entry) => entry.name)
    .sort();
  const found: DiscoveredPlugin[] = [];
  for (const folder of folders) {
    const dir = path.join(pluginsDir, folder);
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
    found.push({ folder, dir, manifest: mod.manifest as PluginManifest });
  }
  return found;
}
