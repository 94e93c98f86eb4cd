import { defineDeliveryPlugin, Type } from '#plugin-api';
import { webPushConfig } from './config.ts';
import { webPushRoutes } from './webpush-routes.ts';
import { createWebPushTarget } from './webpush-target.ts';

/**
 * Notifications in the browser, with nothing to install (provider value
 * WebPush): the browser's push subscription is the destination; every
 * alert is encrypted for it (RFC 8291) and sent through its push service
 * with a VAPID token (RFC 8292).
 */
export const manifest = defineDeliveryPlugin({
  id: 'delivery-webpush',
  apiVersion: 4,
  description: "Shows alerts as browser notifications through the browsers' push services (Web Push, VAPID).",
  provider: 'WebPush',
  displayName: 'Browser notification',
  destination: {
    required: false,
    description:
      "The browser itself: the create request carries its `PushSubscription.toJSON()` as `delivery.subscription` ({ endpoint, keys: { p256dh, auth } }); the endpoint must be on a push service of WebPush__AllowedEndpointHosts. The answer's destination is the endpoint.",
    hint: 'This browser asks you to allow notifications from this site.',
    browserSubscription: { publicKeyUrl: '/api/web-push/public-key', serviceWorkerUrl: '/sw.js' },
  },
  deliveryProperties: {
    subscription: Type.Object(
      {
        endpoint: Type.String({ minLength: 1, maxLength: 2048 }),
        expirationTime: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
        keys: Type.Object(
          { p256dh: Type.String({ minLength: 1, maxLength: 200 }), auth: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false, description: "WebPush only: the browser's PushSubscription.toJSON()." },
    ),
  },
  config: webPushConfig,
  async setup(context) {
    return { target: await createWebPushTarget(context), routes: (app) => webPushRoutes(app, context) };
  },
});
