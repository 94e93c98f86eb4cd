import type { CoreSettings } from './core-settings.ts';
import type { CoreConfig } from '../config/core-config-schema.ts';
import { deepFreeze } from '../config/schema-walk.ts';

/**
 * Core's configuration as plugins read it (`coreConfig`): the few settings
 * the plugin API names, copied and frozen. Nothing else is in it: no
 * secret (the connection string, the JWT secret, the feed API's key), no
 * other plugin's sections, nothing core keeps for itself.
 */
export function publicCoreSettings(config: Readonly<CoreConfig>): CoreSettings {
  const { Days, BatchSize, IntervalSeconds } = config.Retention;
  return deepFreeze({ PublicBaseUrl: config.PublicBaseUrl, NODE_ENV: config.NODE_ENV, Retention: { Days, BatchSize, IntervalSeconds } });
}
