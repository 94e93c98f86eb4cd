import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder, whatever the working directory the process was started from. */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));
export const defaultPluginsDir = fileURLToPath(new URL('../plugins', import.meta.url));
export const coreMigrationsDir = fileURLToPath(new URL('../migrations', import.meta.url));

/** The plugins folder a process loads: PLUGINS_DIR (absolute, or from the working directory) when set, else the project's plugins/. */
export function pluginsDirOf(env: Readonly<Record<string, string | undefined>>): string {
  return env.PLUGINS_DIR ? path.resolve(env.PLUGINS_DIR) : defaultPluginsDir;
}
