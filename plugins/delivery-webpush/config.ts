import { Type } from '#plugin-api';

/** The browsers' push services: Chrome/Edge (FCM), Firefox (Mozilla), Safari (Apple), the Windows notification service. */
export const BROWSER_PUSH_SERVICES = ['fcm.googleapis.com', 'updates.push.services.mozilla.com', '*.push.apple.com', '*.notify.windows.com'];

export const webPushConfig = {
  WebPush: Type.Object({
    VapidPublicKey: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{87}$', description: 'VAPID public key (base64url, from `npm run webpush:keys`).' })),
    VapidPrivateKey: Type.Optional(
      Type.String({ 'x-secret': true, pattern: '^[A-Za-z0-9_-]{43}$', description: 'VAPID private key (base64url, from `npm run webpush:keys`).' }),
    ),
    Subject: Type.String({
      default: 'mailto:alerts@localhost',
      pattern: '^(mailto:|https://)\\S+$',
      description: 'Who sends (VAPID `sub`): a mailto: address or an https: URL the push services can reach you at.',
    }),
    AllowedEndpointHosts: Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
      default: BROWSER_PUSH_SERVICES,
      description: 'Push-service hosts a browser subscription may point at, comma-separated; `*.example.org` for subdomains.',
    }),
    TtlSeconds: Type.Integer({
      minimum: 0,
      maximum: 2_419_200,
      default: 86_400,
      description: 'How long a push service keeps a message for a browser that is offline (TTL).',
    }),
    TimeoutSeconds: Type.Integer({ minimum: 1, maximum: 120, default: 10, description: 'Timeout of one request to a push service, in seconds.' }),
    ConnectionsPerHost: Type.Integer({ minimum: 1, maximum: 64, default: 16, description: 'Keep-alive connections to one push service.' }),
  }),
};
