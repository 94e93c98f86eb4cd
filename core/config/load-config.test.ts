import { describe, expect, it } from 'vitest';
import Type from 'typebox';
import { composeConfigSchema } from './compose-schema.ts';
import { renderEnvTemplate } from './env-template.ts';
import { ConfigError, loadConfig } from './load-config.ts';

const pluginSections = {
  owner: 'plugin test-feed',
  sections: {
    TestFeed: Type.Object({
      Enabled: Type.Boolean({ default: false, description: 'Run it.' }),
      PollingIntervalSeconds: Type.Integer({ minimum: 5, default: 60, description: 'Period.' }),
    }),
    'Notifications:Test': Type.Object({
      Token: Type.Optional(Type.String({ 'x-secret': true, description: 'A token.' })),
      Topics: Type.Array(Type.String(), { default: [], description: 'Topics.' }),
    }),
  },
};
const schema = composeConfigSchema([pluginSections]);
const load = (env: Record<string, string>) => loadConfig(env, schema);
const cfg = (env: Record<string, string>) => load(env).config as any;

describe('configuration tree from env', () => {
  it('applies every default when nothing is set', () => {
    const config = cfg({});
    expect(config.Server).toEqual({
      Host: '127.0.0.1',
      Port: 5000,
      TrustedProxies: ['loopback'],
      BodyLimitBytes: 16384,
      RequestTimeoutSeconds: 30,
      ClockFollowsDatabase: true,
    });
    expect(config.NotificationPipeline).toMatchObject({ Enabled: true, CooldownSeconds: 300, SystemSubscriptions: {} });
    expect(config.SubscriptionLimits).toEqual({
      MaxPerIp: 3,
      MaxPerIpPerDay: 3,
      MaxSubscriptionsPerUser: 2,
      MaxVerificationsPerAddressPerDay: 3,
      Ipv6PrefixLength: 64,
    });
    expect(config.TestFeed).toEqual({ Enabled: false, PollingIntervalSeconds: 60 });
    expect(config.Notifications.Test).toEqual({ Topics: [] });
    expect(config.ConnectionStrings.DefaultConnection).toBeUndefined();
  });

  it('nests A__B keys, coerces types and matches names case-insensitively', () => {
    const config = cfg({
      TestFeed__Enabled: 'true',
      TESTFEED__POLLINGINTERVALSECONDS: '90',
      Notifications__Test__Topics: 'a, b,,c',
      'NotificationPipeline:Enabled': 'false',
      Server__Port: '5050',
    });
    expect(config.TestFeed).toEqual({ Enabled: true, PollingIntervalSeconds: 90 });
    expect(config.Notifications.Test.Topics).toEqual(['a', 'b', 'c']);
    expect(config.NotificationPipeline.Enabled).toBe(false);
    expect(config.Server.Port).toBe(5050);
  });

  it('keeps the names of record entries (system subscriptions)', () => {
    const config = cfg({
      NotificationPipeline__SystemSubscriptions__PowerOutages__FeedId: 'utility.power-outages',
      NotificationPipeline__SystemSubscriptions__PowerOutages__PushTopic: 'utility-power-outages',
    });
    expect(config.NotificationPipeline.SystemSubscriptions).toEqual({
      PowerOutages: { FeedId: 'utility.power-outages', PushTopic: 'utility-power-outages', Provider: 'Push' },
    });
  });

  it('treats an empty value as unset and ignores variables that are not ours', () => {
    const config = cfg({ Server__Host: '', PATH: '/usr/bin', HOME: '/root' });
    expect(config.Server.Host).toBe('127.0.0.1');
    expect(config).not.toHaveProperty('PATH');
  });

  it('reports unknown keys inside known sections', () => {
    expect(load({ TestFeed__Enabeld: 'true' }).unknownKeys).toEqual(['TestFeed__Enabeld']);
  });

  it('reports a set variable under a misspelled section (plugin sections too), not the environment at large', () => {
    const loaded = load({ Serverr__Port: '5001', TestFeedd__Enabled: 'true', Serverr__Host: '', PATH: '/usr/bin', npm_config_cache: '/tmp' });
    expect(loaded.sectionTypos).toEqual([
      { key: 'Serverr__Port', section: 'Server', suggestion: 'Server__Port' },
      { key: 'TestFeedd__Enabled', section: 'TestFeed', suggestion: 'TestFeed__Enabled' },
    ]);
    expect((loaded.config as any).Server.Port).toBe(5000);
    expect(load({ Server__Port: '5001' }).sectionTypos).toEqual([]);
  });

  it('rejects bad values with a message naming each key, never the value', () => {
    let error: unknown;
    try {
      load({ TestFeed__PollingIntervalSeconds: 'often', Server__Port: '70000', Jwt__Secret: 'short-secret' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('TestFeed__PollingIntervalSeconds must be integer');
    expect(message).toContain('Server__Port must be <= 65535');
    expect(message).toContain('Jwt__Secret must NOT have fewer than 16 characters');
    expect(message).not.toContain('short-secret');
    expect(message).not.toContain('often');
  });

  it('checks a missing record field by its full key', () => {
    expect(() => load({ NotificationPipeline__SystemSubscriptions__X__PushTopic: 'a-b' })).toThrow(
      /NotificationPipeline__SystemSubscriptions__X__FeedId is required/,
    );
  });

  it('freezes the result and collects the secret values', () => {
    const loaded = load({ Notifications__Test__Token: 'tk_secret_value', Jwt__Secret: 'a-very-long-jwt-secret' });
    expect(Object.isFrozen(loaded.config)).toBe(true);
    expect(Object.isFrozen((loaded.config as any).Notifications.Test)).toBe(true);
    expect(loaded.secrets.sort()).toEqual(['a-very-long-jwt-secret', 'tk_secret_value']);
  });

  it('refuses a section claimed twice', () => {
    expect(() => composeConfigSchema([pluginSections, { owner: 'plugin other', sections: { TestFeed: Type.Object({}) } }])).toThrow(
      /"TestFeed" of plugin other overlaps "TestFeed" of plugin test-feed/,
    );
    expect(() => composeConfigSchema([{ owner: 'plugin sneaky', sections: { 'Server:Extra': Type.Object({}) } }])).toThrow(/overlaps "Server" of core/);
  });
});

describe('env template', () => {
  const template = renderEnvTemplate(schema, [{ key: 'NotificationPipeline__SystemSubscriptions__Test__FeedId', value: 'test.feed', description: 'Feed.' }]);

  it('lists every key with its default and description, secrets empty', () => {
    expect(template).toContain('# Period.\nTestFeed__PollingIntervalSeconds=60\n');
    expect(template).toContain('Server__Port=5000');
    expect(template).toContain('Server__TrustedProxies=loopback');
    expect(template).toContain('Notifications__Test__Topics=\n');
    expect(template).toMatch(/# A token\. Secret: never logged\.\nNotifications__Test__Token=\n/);
    expect(template).toContain('NotificationPipeline__SystemSubscriptions__Test__FeedId=test.feed');
  });

  it('round-trips: the template itself loads as a valid configuration', () => {
    const env = Object.fromEntries(
      template
        .split('\n')
        .filter((line) => line && !line.startsWith('#'))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(() => load({ ...env, NotificationPipeline__SystemSubscriptions__Test__PushTopic: 't' })).not.toThrow();
  });
});
