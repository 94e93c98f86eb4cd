import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../paths.ts';
import path from 'node:path';

const PLUGIN_API_URL = pathToFileURL(path.join(projectRoot, 'core', 'plugin-api', 'index.ts')).href;
let registered = false;

/**
 * `#plugin-api` for a plugin wherever its folder is. Node resolves `#…`
 * imports through the importing file's nearest package.json, so a plugins
 * folder outside the project (PLUGINS_DIR=/opt/alerts/plugins) could not
 * import the API; this resolve hook answers the one specifier for every
 * importer, the same module the project's own plugins get. Registered once,
 * before the first plugin is imported.
 */
export function resolvePluginApiEverywhere(): void {
  if (registered) return;
  registered = true;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier === '#plugin-api') return { url: PLUGIN_API_URL, shortCircuit: true };
      return nextResolve(specifier, context);
    },
  });
}
