/**
 * Which push topics this service may publish to. Pure: the policy is composed
 * once from the plugins' allowlist and the config, then asked many times; no
 * I/O and no config reading here.
 */

/** ntfy's topic rule; also the sequence-id rule. */
export const TOPIC_PATTERN = /^[-_A-Za-z0-9]{1,64}$/;

/** ntfy's default disallowed topics: they collide with its own routes (400, 40010). */
export const RESERVED_TOPICS: ReadonlySet<string> = new Set(['docs', 'static', 'file', 'app', 'metrics', 'account', 'settings', 'signup', 'login', 'v1']);

export interface TopicPolicy {
  readonly topics: ReadonlySet<string>;
  readonly prefixes: readonly string[];
}

export interface TopicPolicySources {
  /** Every plugin's declared topics and prefixes (feed system topics included). */
  readonly allowlist: { readonly topics: readonly string[]; readonly prefixes: readonly string[] };
  /** Notifications:Push:AllowedTopics */
  readonly allowedTopics: readonly string[];
  /** Notifications:Push:AllowedTopicPrefixes */
  readonly allowedTopicPrefixes: readonly string[];
  /** Notifications:Push:TopicPrefix: generated topics must pass too. */
  readonly generatedTopicPrefix: string;
}

export function composeTopicPolicy(sources: TopicPolicySources): TopicPolicy {
  const prefixes = new Set([...sources.allowlist.prefixes, ...sources.allowedTopicPrefixes, sources.generatedTopicPrefix]);
  prefixes.delete(''); // an empty prefix would allow every topic
  return Object.freeze({
    topics: new Set([...sources.allowlist.topics, ...sources.allowedTopics]),
    prefixes: Object.freeze([...prefixes].sort()),
  });
}

/** Why a topic is refused, or null when the policy allows it. */
export function topicRefusal(topic: string, policy: TopicPolicy): string | null {
  if (!TOPIC_PATTERN.test(topic)) return 'not a valid topic name (1-64 of A-Z a-z 0-9 - _)';
  if (RESERVED_TOPICS.has(topic)) return 'a reserved topic name of the push server';
  if (policy.topics.has(topic)) return null;
  // The prefix alone is not a generated topic: something must follow it.
  if (policy.prefixes.some((prefix) => topic.length > prefix.length && topic.startsWith(prefix))) return null;
  return 'not on the topic allowlist';
}

export function isTopicAllowed(topic: string, policy: TopicPolicy): boolean {
  return topicRefusal(topic, policy) === null;
}
