/**
 * The push server's access rules for what this service publishes: pure text
 * from the plugins' topic allowlist and the Notifications:Push config, so the
 * ACL and the topic policy are generated from the same lists.
 */

const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
/** ntfy's user-name rule; also keeps the printed shell commands safe. */
const USER = /^[-_.+@A-Za-z0-9]{1,64}$/;
/** ntfy's default disallowed topics: the server refuses them whatever the ACL says. */
const RESERVED = new Set(['docs', 'static', 'file', 'app', 'metrics', 'account', 'settings', 'signup', 'login', 'v1']);

export interface PushAclInput {
  readonly topics: readonly string[];
  readonly prefixes: readonly string[];
  /** The ntfy user whose token is Notifications__Push__PublishToken. */
  readonly publisherUser: string;
  /** Push topics of configured system subscriptions: warned about when no rule covers them. */
  readonly systemTopics?: readonly string[];
}

/** The `Notifications:Push` values the rules depend on (all optional: the plugin may be absent). */
export interface PushSectionValues {
  readonly TopicPrefix?: string;
  readonly AllowedTopics?: readonly string[];
  readonly AllowedTopicPrefixes?: readonly string[];
}

/** Topics and prefixes as the push target's topic policy composes them. */
export function aclEntries(
  allowlist: { readonly topics: readonly string[]; readonly prefixes: readonly string[] },
  push: PushSectionValues | undefined,
): { topics: string[]; prefixes: string[] } {
  const topics = new Set([...allowlist.topics, ...(push?.AllowedTopics ?? [])]);
  const prefixes = new Set([...allowlist.prefixes, ...(push?.AllowedTopicPrefixes ?? []), ...(push?.TopicPrefix ? [push.TopicPrefix] : [])]);
  prefixes.delete('');
  return { topics: [...topics].sort(), prefixes: [...prefixes].sort() };
}

/** Throws naming every entry the push server would refuse (and the shell could misread). */
function check(input: PushAclInput): void {
  const problems: string[] = [];
  if (!USER.test(input.publisherUser)) problems.push(`publisher user "${input.publisherUser}" is not a valid ntfy user name`);
  for (const topic of input.topics) {
    if (!TOPIC.test(topic)) problems.push(`topic "${topic}" is not a valid topic name`);
    else if (RESERVED.has(topic)) problems.push(`topic "${topic}" is reserved by the push server`);
  }
  for (const prefix of input.prefixes) if (!TOPIC.test(prefix)) problems.push(`prefix "${prefix}" is not a valid topic prefix`);
  if (problems.length > 0) throw new Error(`cannot write push ACL rules:\n  ${problems.join('\n  ')}`);
}

export function renderPushAcl(input: PushAclInput): string {
  check(input);
  const topics = [...new Set(input.topics)].sort();
  const patterns = [...topics, ...[...new Set(input.prefixes)].sort().map((prefix) => `${prefix}*`)];
  const user = input.publisherUser;
  const uncovered = (input.systemTopics ?? []).filter((t) => !topics.includes(t) && !input.prefixes.some((p) => t.length > p.length && t.startsWith(p)));

  const lines = [
    '# Access rules of the push server (ntfy) for notification-pipeline (npm run push:acl).',
    '# The default access MUST be deny-all: only the topics below are usable, and only',
    `# the publisher user "${user}" (the owner of Notifications__Push__PublishToken) may write.`,
    '# Everyone may read (subscribers use no account). Provision the user and its token',
    '# separately (auth-users/auth-tokens or `ntfy user add`/`ntfy token add`): they are secrets.',
    ...uncovered.map((t) => `# WARNING: system subscription topic "${t}" is covered by no rule: add it to Notifications__Push__AllowedTopics.`),
    '',
    '# server.yml',
    'auth-default-access: "deny-all"',
    'auth-access:',
    ...patterns.flatMap((pattern) => [`  - "${user}:${pattern}:write-only"`, `  - "*:${pattern}:read-only"`]),
    '',
    '# or the same with the ntfy CLI on the push server (with auth-default-access: "deny-all")',
    ...patterns.flatMap((pattern) => [`ntfy access ${user} '${pattern}' write`, `ntfy access everyone '${pattern}' read`]),
  ];
  return `${lines.join('\n')}\n`;
}
