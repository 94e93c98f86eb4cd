import webpush from 'web-push';

/**
 * VAPID `Authorization` headers (RFC 8292), one per push service origin,
 * signed once (ES256) and reused while they have more than 11 of their
 * 12 hours left: signing for every message would cost a signature each.
 */
export function vapidHeaders(keys: { publicKey: string; privateKey: string; subject: string }, now: () => Date) {
  const cache = new Map<string, { header: string; expires: number }>();
  return (endpoint: string): string => {
    const audience = new URL(endpoint).origin;
    const seconds = Math.floor(now().getTime() / 1000);
    const cached = cache.get(audience);
    if (cached && cached.expires - seconds > 11 * 3600) return cached.header;
    const expires = seconds + 12 * 3600;
    const header = webpush.getVapidHeaders(audience, keys.subject, keys.publicKey, keys.privateKey, 'aes128gcm', expires).Authorization;
    cache.set(audience, { header, expires });
    return header;
  };
}
