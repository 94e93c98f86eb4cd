import * as client from 'openid-client';

export interface OidcSettings {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret?: string;
  /** Where the provider sends the browser back: PublicBaseUrl + /console/callback. */
  readonly redirectUri: string;
}

/** What a sign-in under way keeps in the session until the provider sends the browser back. */
export interface PendingSignIn {
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
}

/**
 * Sign-in with OpenID Connect through `openid-client`: authorization code
 * with PKCE (S256), state and nonce checked on the way back. The provider's
 * metadata is discovered on first use (and again after a failure), so a
 * provider that is down stops sign-in, never the service. Plain http is
 * allowed only for a provider on this machine (loopback).
 */
export function createOidcSignIn(settings: OidcSettings) {
  let discovered: Promise<client.Configuration> | undefined;
  const issuer = new URL(settings.issuer);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
  const discover = () =>
    (discovered ??= client
      .discovery(
        issuer,
        settings.clientId,
        settings.clientSecret,
        undefined,
        loopback && issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      }));

  return {
    /** The provider's authorization URL, and what to keep until the browser comes back. */
    async start(): Promise<{ url: string; pending: PendingSignIn }> {
      const config = await discover();
      const verifier = client.randomPKCECodeVerifier();
      const pending = { state: client.randomState(), nonce: client.randomNonce(), verifier };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: 'openid profile email roles',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url: url.href, pending };
    },

    /** The user's claims (the ID token's, with the userinfo's when the token has no roles or groups); throws when the answer does not check out. */
    async finish(callbackUrl: URL, pending: PendingSignIn): Promise<Record<string, unknown>> {
      const config = await discover();
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims: Record<string, unknown> = { ...(tokens.claims() ?? {}) };
      if (!('roles' in claims) && !('groups' in claims) && typeof claims.sub === 'string') {
        const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
        return { ...info, ...claims };
      }
      return claims;
    },
  };
}

export type OidcSignIn = ReturnType<typeof createOidcSignIn>;
