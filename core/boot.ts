import { composeConfigSchema } from './config/compose-schema.ts';
import type { CoreConfig } from './config/core-config-schema.ts';
import type { EnvSnapshot } from './config/env-source.ts';
import { loadConfig, type LoadedConfig } from './config/load-config.ts';
import type { JsonSchema } from './config/schema-walk.ts';
import { feedHealthCoreFeed } from './feed-health/feed-health-feed.ts';
import { defaultPluginsDir, type PluginRoot } from './paths.ts';
import { discoverPlugins } from './plugins/discover.ts';
import { PluginRegistry } from './plugins/registry.ts';

/** The installed plugins and the configuration schema they make with core's: what start-up, the CLI and the templates begin from. */
export interface DiscoveredPlugins {
  registry: PluginRegistry;
  schema: JsonSchema;
}

export interface ConfiguredPlugins extends DiscoveredPlugins {
  loaded: LoadedConfig;
  config: Readonly<CoreConfig>;
}

/** Discovers the plugins and composes the configuration schema: no I/O but reading plugins/. */
export async function loadPlatform(pluginsDir: string | readonly PluginRoot[] = defaultPluginsDir): Promise<DiscoveredPlugins> {
  const registry = new PluginRegistry(await discoverPlugins(pluginsDir), [feedHealthCoreFeed]);
  return { registry, schema: composeConfigSchema(registry.configOwners()) };
}

/** loadPlatform plus the validated, frozen configuration. Throws ConfigError naming the keys. */
export async function configurePlatform(env: EnvSnapshot, pluginsDir?: string | readonly PluginRoot[]): Promise<ConfiguredPlugins> {
  const platform = await loadPlatform(pluginsDir);
  const loaded = loadConfig(env, platform.schema);
  return { ...platform, loaded, config: loaded.config as unknown as CoreConfig };
}
