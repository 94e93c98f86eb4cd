import { createSigner } from 'fast-jwt';

/** An admin bearer token for the demo's secret, valid 12 hours: what `npm run token -- --admin --sub demo-operator` prints. */
export function adminToken(secret: string): string {
  return createSigner({ key: secret, algorithm: 'HS256', expiresIn: 12 * 3600 * 1000 })({ sub: 'demo-operator', role: 'admin' });
}
