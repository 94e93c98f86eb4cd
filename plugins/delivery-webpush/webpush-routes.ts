import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { errorResponses, Errors, textResponse, Type } from '#plugin-api';
import type { WebPushContext } from './webpush-target.ts';

// The service worker: the pure mapping, then the events (one classic script, read once).
const SERVICE_WORKER = [
  readFileSync(new URL('./static/sw-notification.js', import.meta.url), 'utf8'),
  readFileSync(new URL('./static/sw-events.js', import.meta.url), 'utf8'),
].join('\n');

/** Nothing but this script's own origin: it fetches nothing, imports nothing. */
const WORKER_HEADERS = {
  'content-type': 'text/javascript; charset=utf-8',
  'content-security-policy': "default-src 'none'",
  'x-content-type-options': 'nosniff',
  'service-worker-allowed': '/',
  'cache-control': 'no-cache',
};

/** GET /api/web-push/public-key (the VAPID key browsers subscribe with) and GET /sw.js (the service worker). */
export function webPushRoutes(app: FastifyInstance, context: WebPushContext): void {
  app.get(
    '/api/web-push/public-key',
    {
      schema: {
        summary: 'The VAPID public key browsers subscribe with',
        description: '`{ publicKey }` (base64url), the `applicationServerKey` of `pushManager.subscribe`; 404 while no VAPID keys are configured.',
        tags: ['feeds'],
        response: { 200: Type.Object({ publicKey: Type.String() }), ...errorResponses(404) },
      },
    },
    async () => {
      const publicKey = context.config.WebPush.VapidPublicKey;
      if (!publicKey || !context.config.WebPush.VapidPrivateKey) throw new Errors.NotFound('browser notifications are not set up (no VAPID keys)');
      return { publicKey };
    },
  );
  app.get(
    '/sw.js',
    {
      schema: {
        summary: 'The service worker of browser notifications',
        tags: ['pages'],
        response: { 200: textResponse('text/javascript', 'The service worker.'), ...errorResponses() },
      },
    },
    async (_request, reply) => reply.headers(WORKER_HEADERS).send(SERVICE_WORKER),
  );
}
