import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../core/paths.ts';
import { installed } from './shipped-plugins.ts';

/**
 * A module of a shipped plugin, for a test that uses one part of it among
 * others (the hostile-input harness reads the email plugin's link tokens):
 * loaded by path only when plugins/ holds the plugin, so a copy of the
 * project without it still type-checks, and the test leaves that part out.
 * `T` is what the test needs of it, written where it is used.
 */
export async function pluginModule<T>(folder: string, file: string): Promise<T | null> {
  if (!installed(folder)) return null;
  return (await import(pathToFileURL(path.join(projectRoot, 'plugins', folder, file)).href)) as T;
}
