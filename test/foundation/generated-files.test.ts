import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configurePlatform, loadPlatform } from '../../core/boot.ts';
import { renderConfigReference, renderEnvTemplate, REFERENCE_END, REFERENCE_START } from '../../core/config/env-template.ts';
import { projectRoot } from '../../core/paths.ts';
import { shippedPluginsDir } from '../helpers/shipped-plugins.ts';

// The committed files describe the shipped plugins; a folder dropped into plugins/ changes neither them nor this test.
const { registry, schema } = await loadPlatform(shippedPluginsDir());

describe('generated configuration files are current (run `npm run config:template` after a schema change)', () => {
  it('config/env.template', () => {
    expect(readFileSync(path.join(projectRoot, 'config', 'env.template'), 'utf8')).toBe(renderEnvTemplate(schema, registry.templateExamples()));
  });

  it('the configuration reference in docs/configuration.md', () => {
    const page = readFileSync(path.join(projectRoot, 'docs', 'configuration.md'), 'utf8');
    const block = page.slice(page.indexOf(REFERENCE_START) + REFERENCE_START.length, page.indexOf(REFERENCE_END)).trim();
    expect(block).toBe(renderConfigReference(schema, registry.templateExamples()));
  });

  it('says the system subscriptions are off unless set, as they are', async () => {
    const { config } = await configurePlatform({}, shippedPluginsDir());
    expect(config.NotificationPipeline.SystemSubscriptions).toEqual({});
    const reference = renderConfigReference(schema, registry.templateExamples());
    const rows = reference.split('\n').filter((row) => row.includes('SystemSubscriptions__') && !row.includes('<Name>'));
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row).toMatch(/^\| `[^`]+` \| unset \| .*Not on by default; set to `[^`]+`/);
    expect(renderEnvTemplate(schema, registry.templateExamples())).toContain('There is none by default');
  });

  it('tells where a .env file is read, next to the env template', () => {
    expect(renderEnvTemplate(schema, [])).toContain('`npm start` (and `npm run migrate`, `npm run push:acl`) read a `.env` file in the project folder');
    const scripts = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')).scripts;
    for (const name of ['start', 'migrate', 'push:acl']) expect(scripts[name]).toMatch(/^(exec )?node --env-file-if-exists=\.env /);
    // exec: npm's shell becomes the service, so a SIGTERM npm forwards reaches it (a shell in between would die and leave it running).
    expect(scripts.start).toMatch(/^exec node /);
  });

  it('names the keys of the contract', () => {
    const template = renderEnvTemplate(schema, registry.templateExamples());
    for (const key of [
      'Server__Host',
      'Server__Port',
      'PublicBaseUrl',
      'ConnectionStrings__DefaultConnection',
      'NotificationPipeline__Enabled',
      'NotificationPipeline__CooldownSeconds',
      'PowerOutages__Enabled',
      'PowerOutages__PollingIntervalSeconds',
      'PowerOutages__FeedTimeoutSeconds',
      'ScheduledOutages__TimeZone',
      'ScheduledOutages__WeeklyDigestDay',
      'ExternalProvider__BaseUrl',
      'ExternalProvider__ApiKey',
      'Notifications__Push__BaseUrl',
      'Notifications__Push__PublishToken',
      'Notifications__Push__TopicPrefix',
      'Notifications__Push__AllowedTopics',
      'Notifications__Push__AllowedTopicPrefixes',
      'EmailProvider__Host',
      'EmailProvider__ApiKey',
      'EmailProvider__From',
      'EmailOutbox__IntervalSeconds',
      'EmailOutbox__BatchSize',
      'EmailOutbox__MaxAttempts',
      'SubscriptionLimits__MaxPerIp',
      'SubscriptionLimits__MaxPerIpPerDay',
      'SubscriptionLimits__MaxSubscriptionsPerUser',
      'Jwt__Secret',
      'NotificationPipeline__SystemSubscriptions__PowerOutages__PushTopic',
    ]) {
      expect(template).toMatch(new RegExp(`^${key}=`, 'm'));
    }
  });
});
