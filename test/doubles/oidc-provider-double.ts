import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface OidcProviderDouble {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The console's env for this provider. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/** Users of the double and their roles: any password signs them in (oidc-provider's own development login pages). */
export const OIDC_USERS: Readonly<Record<string, readonly string[]>> = { alice: ['notification-admin', 'staff'], bob: ['staff'] };
export const OIDC_ADMIN_ROLE = 'notification-admin';

/**
 * A real OpenID Connect provider on loopback (`oidc-provider`, the
 * certified implementation) with one confidential client, the console:
 * authorization code with PKCE required, `roles` in the ID token. Its
 * development interactions are the login and consent pages a browser
 * test fills in.
 */
export async function startOidcProviderDouble(redirectUri: string): Promise<OidcProviderDouble> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'notification-console';
  const clientSecret = 'console-secret-0123456789abcdef';
  const provider = new Provider(issuer, {
    clients: [
      { client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] },
    ],
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'], roles: ['roles'] },
    scopes: ['openid', 'profile', 'roles', 'email'],
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    cookies: { keys: ['oidc-double-cookie-key-0123456789'] },
    features: { devInteractions: { enabled: true } },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, preferred_username: id, name: id, roles: [...(OIDC_USERS[id] ?? [])] }),
    }),
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    env: {
      Console__Oidc__Issuer: issuer,
      Console__Oidc__ClientId: clientId,
      Console__Oidc__ClientSecret: clientSecret,
      Console__Oidc__AdminRole: OIDC_ADMIN_ROLE,
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
