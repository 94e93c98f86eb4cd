import { describe, expect, it } from 'vitest';
import { composeTopicPolicy, isTopicAllowed, topicRefusal } from './topic-policy.ts';

const policy = composeTopicPolicy({
  allowlist: { topics: ['utility-power-outages', 'utility-scheduled-outages'], prefixes: ['feed-x-'] },
  allowedTopics: ['ops-extra'],
  allowedTopicPrefixes: ['team_'],
  generatedTopicPrefix: 'alerts-',
});

describe('topic policy', () => {
  it.each([
    ['utility-power-outages', true, 'a feed system topic from the plugins'],
    ['utility-scheduled-outages', true, 'the other feed system topic'],
    ['ops-extra', true, 'AllowedTopics'],
    ['alerts-AbC_123-xyz', true, 'the generated-topic prefix'],
    ['team_night', true, 'AllowedTopicPrefixes'],
    ['feed-x-1', true, 'a prefix a plugin declares'],
    ['alerts-', false, 'the bare prefix is not a generated topic'],
    ['Alerts-abc', false, 'topics are case-sensitive'],
    ['utility-power-outages2', false, 'an exact topic is not a prefix'],
    ['random-topic', false, 'not on the allowlist'],
    ['', false, 'empty'],
    ['alerts-a/b', false, 'a character outside the alphabet'],
    ['alerts-ä', false, 'non-ASCII'],
    [`alerts-${'a'.repeat(57)}`, true, '64 characters'],
    [`alerts-${'a'.repeat(58)}`, false, '65 characters'],
  ])('%s → %s (%s)', (topic, allowed) => {
    expect(isTopicAllowed(topic, policy)).toBe(allowed);
  });

  it.each(['docs', 'static', 'file', 'app', 'metrics', 'account', 'settings', 'signup', 'login', 'v1'])(
    'refuses the reserved name %s even when allowlisted',
    (name) => {
      const open = composeTopicPolicy({
        allowlist: { topics: [name], prefixes: [] },
        allowedTopics: [name],
        allowedTopicPrefixes: [],
        generatedTopicPrefix: 'alerts-',
      });
      expect(topicRefusal(name, open)).toBe('a reserved topic name of the push server');
    },
  );

  it('says why a topic is refused', () => {
    expect(topicRefusal('a b', policy)).toMatch(/not a valid topic name/);
    expect(topicRefusal('random-topic', policy)).toBe('not on the topic allowlist');
    expect(topicRefusal('ops-extra', policy)).toBeNull();
  });

  it('ignores an empty prefix instead of allowing every topic', () => {
    const p = composeTopicPolicy({ allowlist: { topics: [], prefixes: [''] }, allowedTopics: [], allowedTopicPrefixes: [''], generatedTopicPrefix: 'alerts-' });
    expect(p.prefixes).toEqual(['alerts-']);
    expect(isTopicAllowed('anything', p)).toBe(false);
  });
});
