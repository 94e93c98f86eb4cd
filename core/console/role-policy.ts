import { singleLine } from '../plugin-api/user-text.ts';

/**
 * Who may use the operator console, from an OpenID Connect user's claims
 * (pure). The role is looked for where providers put it: a `roles` or
 * `groups` claim (a list or one value), or Keycloak's `realm_access.roles`.
 */
export function holdsRole(claims: Readonly<Record<string, unknown>>, role: string): boolean {
  const has = (value: unknown) => (Array.isArray(value) ? value.includes(role) : value === role);
  if (has(claims.roles) || has(claims.groups)) return true;
  const realm = claims.realm_access;
  return typeof realm === 'object' && realm !== null && has((realm as { roles?: unknown }).roles);
}

/** A claim as the audit log writes it: one line, at most 120 characters. */
const oneLine = (value: string) => singleLine(value).slice(0, 120);

/**
 * How the audit log names a signed-in user: by `sub`, which the provider
 * never reuses and the user cannot change (`oidc:<sub>`), with the name
 * they go by when it differs (`oidc:8f3c… (alice)`); one line each.
 */
export function oidcActor(claims: Readonly<Record<string, unknown>>): string {
  const sub = typeof claims.sub === 'string' && claims.sub !== '' ? oneLine(claims.sub) : 'unknown';
  const name = [claims.preferred_username, claims.email].find((value) => typeof value === 'string' && value.trim() !== '') as string | undefined;
  return name === undefined || oneLine(name) === sub ? `oidc:${sub}` : `oidc:${sub} (${oneLine(name)})`;
}
