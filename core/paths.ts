import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder, whatever the working directory the process was started from. */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));
export const defaultPluginsDir = fileURLToPath(new URL('../plugins', import.meta.url));
export const coreMigrationsDir = fileURLToPath(new URL('../migrations', import.meta.url));

/** Where a process finds plugins: a folder of plugin folders, or one plugin's folder. */
export interface PluginRoot {
  readonly dir: string;
  /** Set for a folder someone named (PLUGINS_DIR): it must exist and hold a plugin, or the start stops naming it. */
  readonly namedBy?: string;
}

/**
 * The plugins a process loads: the project's plugins/, then each folder of
 * PLUGINS_DIR (a list separated by the platform's path delimiter, `:` here;
 * each absolute or from the working directory; a folder of plugin folders,
 * or one plugin's own folder).
 */
export function pluginRootsOf(env: Readonly<Record<string, string | undefined>>): PluginRoot[] {
  const extra = (env.PLUGINS_DIR ?? '')
    .split(path.delimiter)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => ({ dir: path.resolve(entry), namedBy: 'PLUGINS_DIR' }));
  return [{ dir: defaultPluginsDir }, ...extra];
}
