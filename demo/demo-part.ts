import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../core/paths.ts';
import { discoverPlugins } from '../core/plugins/discover.ts';

/** What a plugin's demo part is given when the demo starts it. */
export interface DemoPartContext {
  /** Where the service will listen (the part's pages link to it, its callbacks reach it). */
  readonly serviceUrl: string;
  /** A line in the demo's log, named for the part. */
  log(message: string): void;
}

/** A running double the demo starts for one plugin: a page people open, and the settings that point the plugin at it. */
export interface DemoPart {
  /** What the demo's list calls it: `Text gateway`. */
  readonly name: string;
  /** Its page, printed as `<name>: <url>`. */
  readonly url: string;
  /** The service's settings for the plugin (its own sections, and its lane's rate). */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** What `plugins/<folder>/demo/part.ts` exports as `startDemoPart`. */
export type StartDemoPart = (context: DemoPartContext) => Promise<DemoPart>;

/**
 * The demo parts of the plugins the service will load, found as its
 * registry finds the plugins (discovery of plugins/), in folder order: a
 * plugin taken out takes its part along, and a plugin dropped in with a
 * `demo/part.ts` is in the demo with nothing else changed.
 */
export async function installedDemoParts(
  pluginsDir = path.join(projectRoot, 'plugins'),
): Promise<Array<{ readonly plugin: string; readonly start: StartDemoPart }>> {
  const parts: Array<{ plugin: string; start: StartDemoPart }> = [];
  for (const plugin of await discoverPlugins(pluginsDir)) {
    const file = path.join(plugin.dir, 'demo', 'part.ts');
    if (!existsSync(file)) continue;
    const { startDemoPart } = (await import(pathToFileURL(file).href)) as { startDemoPart?: StartDemoPart };
    if (typeof startDemoPart !== 'function') throw new Error(`${path.relative(projectRoot, file)} exports no startDemoPart function`);
    parts.push({ plugin: plugin.folder, start: startDemoPart });
  }
  return parts;
}
