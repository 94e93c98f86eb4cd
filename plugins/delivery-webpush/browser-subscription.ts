import { createECDH } from 'node:crypto';
import { checkOutboundUrl, Errors, type OutboundPolicy } from '#plugin-api';

/** A browser's push subscription as stored: its endpoint is the destination, its keys kept beside it. */
export interface BrowserKeys {
  readonly p256dh: string;
  readonly auth: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** An uncompressed point (0x04, x, y) that lies on P-256: only then can a message be encrypted for it. */
function onCurve(point: Buffer): boolean {
  if (point[0] !== 4) return false;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(point);
    return true;
  } catch {
    return false;
  }
}

function key(value: unknown, field: string, bytes: number, check?: (decoded: Buffer) => boolean): string {
  if (typeof value !== 'string' || !BASE64URL.test(value) || value.length > 200) throw new Errors.InvalidField(`${field} must be base64url`);
  const decoded = Buffer.from(value, 'base64url');
  if (decoded.length !== bytes || (check && !check(decoded))) throw new Errors.InvalidField(`${field} is not a browser's key (${bytes} bytes)`);
  return decoded.toString('base64url');
}

/**
 * Checks the create's `delivery.subscription`, a browser's
 * `PushSubscription.toJSON()` (pure): the endpoint an https URL on an
 * allowed push service, `p256dh` an uncompressed P-256 point (65 bytes,
 * 0x04 first), `auth` 16 bytes. Each problem is a 400 naming its field.
 */
export function checkBrowserSubscription(value: unknown, policy: OutboundPolicy): { endpoint: string; keys: BrowserKeys } {
  const field = 'body/delivery/subscription';
  if (typeof value !== 'object' || value === null)
    throw new Errors.InvalidField(`${field} is required: the browser's push subscription (PushSubscription.toJSON())`);
  const subscription = value as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } };
  if (typeof subscription.endpoint !== 'string' || subscription.endpoint.length > 2048) throw new Errors.InvalidField(`${field}/endpoint must be a URL`);
  const endpoint = checkOutboundUrl(subscription.endpoint, policy, `${field}/endpoint`).href;
  if (typeof subscription.keys !== 'object' || subscription.keys === null) throw new Errors.InvalidField(`${field}/keys is required`);
  return {
    endpoint,
    keys: {
      p256dh: key(subscription.keys.p256dh, `${field}/keys/p256dh`, 65, onCurve),
      auth: key(subscription.keys.auth, `${field}/keys/auth`, 16),
    },
  };
}
