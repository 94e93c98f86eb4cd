import { parseArgs } from 'node:util';
import { configurePlatform } from '../boot.ts';
import { readProcessEnv } from '../config/env-source.ts';
import { aclEntries, renderPushAcl, type PushSectionValues } from './push-acl-rules.ts';
import { pluginRootsOf } from '../paths.ts';

/**
 * `npm run push:acl [-- --publisher <user>]`: prints the push server's access
 * rules (server.yml lines and `ntfy access` commands) for every topic and
 * prefix the plugins declare plus Notifications__Push__AllowedTopics,
 * AllowedTopicPrefixes and TopicPrefix: the same lists the topic policy uses.
 */
try {
  const { values } = parseArgs({ options: { publisher: { type: 'string', default: 'publisher' } } });
  const { registry, loaded, config } = await configurePlatform(readProcessEnv(), pluginRootsOf(process.env));
  const push = (loaded.config.Notifications as { Push?: PushSectionValues } | undefined)?.Push;
  const { topics, prefixes } = aclEntries(registry.topicAllowlist, push);
  const systemTopics = Object.values(config.NotificationPipeline.SystemSubscriptions).flatMap((s) =>
    s.PushTopic !== undefined ? [s.PushTopic] : s.Provider === 'Push' && s.Destination !== undefined ? [s.Destination] : [],
  );
  process.stdout.write(renderPushAcl({ topics, prefixes, publisherUser: values.publisher, systemTopics }));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
