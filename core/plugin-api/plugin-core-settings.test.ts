import { describe, expect, it } from 'vitest';
import { composeConfigSchema } from '../config/compose-schema.ts';
import type { CoreConfig } from '../config/core-config-schema.ts';
import { loadConfig } from '../config/load-config.ts';
import { publicCoreSettings } from './plugin-core-settings.ts';

describe('coreConfig, the core settings a plugin reads', () => {
  const config = loadConfig(
    {
      PublicBaseUrl: 'https://alerts.example.org',
      NODE_ENV: 'production',
      Retention__Days: '45',
      ConnectionStrings__Default: 'postgres://app:hunter2-db@db.internal/alerts',
      Jwt__Secret: 'a-jwt-secret-of-thirty-two-chars!!',
      ExternalProvider__ApiKey: 'feed-api-key-123',
      Console__SessionSecret: 'a-console-session-secret-of-32-chars-or-more',
    },
    composeConfigSchema([]),
  ).config as unknown as CoreConfig;

  it('holds the public base address, the environment and retention, and nothing else: no secret, nothing core keeps for itself', () => {
    const settings = publicCoreSettings(config);
    expect(settings).toEqual({
      PublicBaseUrl: 'https://alerts.example.org',
      NODE_ENV: 'production',
      Retention: { Days: 45, BatchSize: 5000, IntervalSeconds: 3600 },
    });
    const text = JSON.stringify(settings);
    for (const secret of ['hunter2-db', 'a-jwt-secret', 'feed-api-key', 'console-session']) expect(text).not.toContain(secret);
  });

  it('is frozen: a plugin cannot change what another reads', () => {
    const settings = publicCoreSettings(config);
    expect(Object.isFrozen(settings) && Object.isFrozen(settings.Retention)).toBe(true);
    expect(() => ((settings.Retention as { Days: number }).Days = 1)).toThrow(TypeError);
  });
});
