import { describe, expect, it } from 'vitest';
import { holdsRole, oidcActor } from './role-policy.ts';

describe("holdsRole: the console role in a user's claims", () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['a roles list holding it', { roles: ['viewer', 'notification-admin'] }, true],
    ['a groups list holding it', { groups: ['notification-admin'] }, true],
    ['one roles value', { roles: 'notification-admin' }, true],
    ['Keycloak realm roles', { realm_access: { roles: ['notification-admin'] } }, true],
    ['other roles only', { roles: ['viewer'], groups: ['staff'] }, false],
    ['a role that only starts the same', { roles: ['notification-admins'] }, false],
    ['no roles at all', { sub: 'bob' }, false],
    ['a null realm_access', { realm_access: null }, false],
  ])('%s: %s', (_case, claims, expected) => {
    expect(holdsRole(claims, 'notification-admin')).toBe(expected);
  });
});

describe('oidcActor: how the audit log names a user', () => {
  it.each<[Record<string, unknown>, string]>([
    [{ preferred_username: 'alice', email: 'a@example.org', sub: '1' }, 'oidc:1 (alice)'],
    [{ email: 'a@example.org', sub: '1' }, 'oidc:1 (a@example.org)'],
    [{ sub: 'abc' }, 'oidc:abc'],
    [{ sub: 'alice', preferred_username: 'alice' }, 'oidc:alice'],
    [{ preferred_username: 'eve\ninjected: line', sub: '2' }, 'oidc:2 (eve injected: line)'],
  ])('%j → %s', (claims, expected) => {
    expect(oidcActor(claims)).toBe(expected);
  });
});
