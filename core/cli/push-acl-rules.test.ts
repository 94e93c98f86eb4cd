import { describe, expect, it } from 'vitest';
import { aclEntries, renderPushAcl } from './push-acl-rules.ts';

const allowlist = { topics: ['utility-scheduled-outages', 'utility-power-outages'], prefixes: [] };

describe('aclEntries', () => {
  it('composes the lists the topic policy uses: plugins, AllowedTopics, AllowedTopicPrefixes, TopicPrefix', () => {
    expect(aclEntries(allowlist, { TopicPrefix: 'alerts-', AllowedTopics: ['ops-extra', 'utility-power-outages'], AllowedTopicPrefixes: ['team_'] })).toEqual({
      topics: ['ops-extra', 'utility-power-outages', 'utility-scheduled-outages'],
      prefixes: ['alerts-', 'team_'],
    });
  });

  it('works without the push section', () => {
    expect(aclEntries(allowlist, undefined)).toEqual({ topics: ['utility-power-outages', 'utility-scheduled-outages'], prefixes: [] });
  });
});

describe('renderPushAcl', () => {
  const text = renderPushAcl({ topics: ['utility-power-outages', 'utility-scheduled-outages'], prefixes: ['alerts-'], publisherUser: 'publisher' });

  it('says the default must be deny-all', () => {
    expect(text).toMatch(/^# .*\n# The default access MUST be deny-all/);
    expect(text).toContain('auth-default-access: "deny-all"');
  });

  it('writes server.yml auth-access lines: publisher writes, everyone reads', () => {
    expect(text).toContain(
      [
        'auth-access:',
        '  - "publisher:utility-power-outages:write-only"',
        '  - "*:utility-power-outages:read-only"',
        '  - "publisher:utility-scheduled-outages:write-only"',
        '  - "*:utility-scheduled-outages:read-only"',
        '  - "publisher:alerts-*:write-only"',
        '  - "*:alerts-*:read-only"',
      ].join('\n'),
    );
  });

  it('writes the same as ntfy access commands, prefixes as patterns', () => {
    const commands = text.split('\n').filter((line) => line.startsWith('ntfy '));
    expect(commands).toEqual([
      "ntfy access publisher 'utility-power-outages' write",
      "ntfy access everyone 'utility-power-outages' read",
      "ntfy access publisher 'utility-scheduled-outages' write",
      "ntfy access everyone 'utility-scheduled-outages' read",
      "ntfy access publisher 'alerts-*' write",
      "ntfy access everyone 'alerts-*' read",
    ]);
  });

  it('uses the given publisher user', () => {
    expect(renderPushAcl({ topics: ['t1'], prefixes: [], publisherUser: 'np-publisher' })).toContain("ntfy access np-publisher 't1' write");
  });

  it('warns about a system subscription topic no rule covers', () => {
    const warned = renderPushAcl({
      topics: ['utility-power-outages'],
      prefixes: ['alerts-'],
      publisherUser: 'publisher',
      systemTopics: ['utility-power-outages', 'alerts-x', 'custom-outages'],
    });
    expect(warned.match(/WARNING/g)).toHaveLength(1);
    expect(warned).toContain('# WARNING: system subscription topic "custom-outages"');
  });

  it.each([
    [{ topics: ['bad topic'], prefixes: [], publisherUser: 'publisher' }, 'topic "bad topic" is not a valid topic name'],
    [{ topics: ['metrics'], prefixes: [], publisherUser: 'publisher' }, 'topic "metrics" is reserved'],
    [{ topics: [], prefixes: ["x';rm -rf /"], publisherUser: 'publisher' }, 'is not a valid topic prefix'],
    [{ topics: [], prefixes: [], publisherUser: "p'; echo" }, 'is not a valid ntfy user name'],
  ])('refuses what the server or the shell would misread: %j', (input, message) => {
    expect(() => renderPushAcl(input)).toThrow(message);
  });
});
