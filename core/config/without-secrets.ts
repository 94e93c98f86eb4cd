import type { CoreSettings } from '../plugin-api/manifest.ts';
import { coreConfigSchema, type CoreConfig } from './core-config-schema.ts';
import { deepFreeze, recordValueSchema, type JsonSchema } from './schema-walk.ts';

/**
 * A frozen copy of a configuration value with only what the schema names,
 * less its `x-secret` keys: what core hands plugins as `coreConfig` (core's
 * settings without the connection string, the JWT secret or the feed API
 * key; never another plugin's sections).
 */
export function withoutSecrets<T>(schema: JsonSchema, value: T): T {
  return deepFreeze(copyWithoutSecrets(schema, value) as T);
}

function copyWithoutSecrets(schema: JsonSchema, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => copyWithoutSecrets(schema.items ?? {}, item));
  if (value === null || typeof value !== 'object') return value;
  const recordValue = recordValueSchema(schema);
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const childSchema = schema.properties?.[key] ?? recordValue;
    // What the schema does not name (another plugin's sections in the full tree) is not core's to hand out.
    if (!childSchema || childSchema['x-secret']) continue;
    copy[key] = copyWithoutSecrets(childSchema, child);
  }
  return copy;
}

/** Core's configuration as plugins read it: every setting but the secrets. */
export function publicCoreSettings(config: Readonly<CoreConfig>): CoreSettings {
  return withoutSecrets(coreConfigSchema as unknown as JsonSchema, config) as CoreSettings;
}
