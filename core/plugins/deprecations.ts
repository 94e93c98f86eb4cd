import type { PluginManifest } from '../plugin-api/manifest.ts';

/**
 * What a plugin still uses that the API keeps only for plugins written
 * before it grew: each works as it did, and the start says once what to
 * write instead (pure; core logs them as warnings naming the plugin).
 */
export function deprecationsOf(manifest: PluginManifest): string[] {
  const notes: string[] = [];
  if (manifest.apiVersion === undefined) {
    notes.push('it declares no apiVersion, so it is read as written for plugin API version 1; it works as before. Declare the version it is written for (apiVersion: PLUGIN_API_VERSION).');
  }
  if (manifest.kind === 'feed' && manifest.monitor.parse && !manifest.monitor.answer) {
    notes.push('its monitor checks answers with parse: one bad item fails the whole poll. Declare answer with defineFeedAnswer, and core leaves out a bad item alone.');
  }
  return notes;
}
