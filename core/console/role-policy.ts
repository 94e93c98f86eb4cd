/**
 * Who may use the operator console, from an OpenID Connect user's claims
 * (pure). The role is looked for where providers put it: a `roles` or
 * `groups` claim (a list or one value), or Keycloak's `realm_access.roles`.
 */
export function holdsRole(claims: Readonly<Record<string, unknown>>, role: string): boolean {
  const has = (value: unknown) => (Array.isArray(value) ? value.includes(role) : value === role);
  if (has(claims.roles) || has(claims.groups)) return true;
  const realm = claims.realm_access as { roles?: unknown } | undefined;
  return realm !== undefined && has(realm.roles);
}

/** How the audit log names a signed-in user: `oidc:<preferred_username | email | sub>`, one line, at most 120 characters. */
export function oidcActor(claims: Readonly<Record<string, unknown>>): string {
  const name = [claims.preferred_username, claims.email, claims.sub].find((value) => typeof value === 'string' && value.trim() !== '') as string | undefined;
  return `oidc:${(name ?? 'unknown').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, 120)}`;
}
