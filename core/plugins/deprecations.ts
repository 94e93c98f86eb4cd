import type { PluginManifest } from '../plugin-api/manifest.ts';

/**
 * Each deprecation has a code of its own, never reused for another (as
 * fastify's FSTDEP codes): a plugin author can look one up, and a log
 * search finds every plugin that still needs it.
 */
export const DEPRECATIONS = {
  NPDEP001:
    'it declares no apiVersion, so it is read as written for plugin API version 1; it works as before. Declare the version it is written for (apiVersion: PLUGIN_API_VERSION).',
  NPDEP002:
    'its monitor checks answers with parse: one bad item fails the whole poll. Declare answer with defineFeedAnswer, and core leaves out a bad item alone.',
  NPDEP003:
    "its manifest declares supersedes, which core no longer needs: any newer event of an item supersedes that subscriber's deliveries of the item still waiting, whatever their type. Remove supersedes; say what was missed with the renderer's context.missed.",
  NPDEP004:
    "it was written before feeds had a source of their own: with no <Feed>__BaseUrl set, it polls ExternalProvider__BaseUrl with ExternalProvider__ApiKey, as before. Give it its own address (and key) in <Feed>__BaseUrl and <Feed>__ApiKey, or, when it reads the utility's own feed API, declare sharedSource: true in its monitor; then declare apiVersion 3.",
  NPDEP005:
    'it declares routes, workers or createTarget on its manifest, and each builds from the context on its own, so what they share needs a lookup by context. Return them from one setup(context) instead ({ routes, workers, target }): what they share lives in its closure.',
} as const;

/** Whether a feed written before per-feed sources (plugin API 1 or 2) still falls back to ExternalProvider__* (NPDEP004). */
export const usesLegacySource = (manifest: PluginManifest) => manifest.kind === 'feed' && !manifest.monitor.sharedSource && (manifest.apiVersion ?? 1) < 3;

export type DeprecationCode = keyof typeof DEPRECATIONS;

/**
 * What a plugin still uses that the API keeps only for plugins written
 * before it grew: each works as it did, and the start says once what to
 * write instead (pure; core logs them as warnings naming the plugin).
 */
export function deprecationsOf(manifest: PluginManifest): string[] {
  const codes: DeprecationCode[] = [];
  if (manifest.apiVersion === undefined) codes.push('NPDEP001');
  if (manifest.kind === 'feed' && manifest.monitor.parse && !manifest.monitor.answer) codes.push('NPDEP002');
  if (manifest.kind === 'feed' && manifest.supersedes !== undefined) codes.push('NPDEP003');
  if (usesLegacySource(manifest)) codes.push('NPDEP004');
  if (manifest.routes !== undefined || manifest.workers !== undefined || (manifest.kind === 'delivery' && manifest.createTarget !== undefined))
    codes.push('NPDEP005');
  return codes.map((code) => `${code}: ${DEPRECATIONS[code]}`);
}
