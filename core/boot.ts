import { composeConfigSchema } from './config/compose-schema.ts';
import type { CoreConfig } from './config/core-config-schema.ts';
import type { EnvSnapshot } from './config/env-source.ts';
import { loadConfig, type LoadedConfig } from './config/load-config.ts';
import type { JsonSchema } from './config/schema-walk.ts';
import { feedHealthCoreFeed } from './feed-health/feed-health-feed.ts';
import { defaultPluginsDir } from './paths.ts';
import { discoverPlugins } from './plugins/discover.ts';
import { PluginRegistry } from './plugins/registry.ts';

export interface Platform {
  registry: PluginRegistry;
  schema: JsonSchema;
}

export interface ConfiguredPlatform extends Platform {
  loaded: LoadedConfig;
  config: Readonly<CoreConfig>;
}

/** Discovers the plugins and composes the configuration schema: no I/O but reading plugins/. */
export async function loadPlatform(pluginsDir = defaultPluginsDir): Promise<Platform> {
  const registry = new PluginRegistry(await discoverPlugins(pluginsDir), [feedHealthCoreFeed]);
  return { registry, schema: composeConfigSchema(registry.configOwners()) };
}

/** loadPlatform plus the validated, frozen configuration. Throws ConfigError naming the keys. */
export async function configurePlatform(env: EnvSnapshot, pluginsDir?: string): Promise<ConfiguredPlatform> {
  const platform = await loadPlatform(pluginsDir);
  const loaded = loadConfig(env, platform.schema);
  return { ...platform, loaded, config: loaded.config as unknown as CoreConfig };
}
