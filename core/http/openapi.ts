import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import { projectRoot } from '../paths.ts';

/** The tags of the API document; every route carries one. */
export const API_TAGS = [
  { name: 'subscriptions', description: 'Create, read, test and delete subscriptions (manage token or bearer JWT).' },
  { name: 'feeds', description: 'The catalog of feeds one can subscribe to, and the providers that deliver them.' },
  { name: 'email links', description: 'The verify and unsubscribe links of the emails.' },
  { name: 'callbacks', description: 'What delivery gateways post back (replies, delivery reports), each signed by its gateway.' },
  { name: 'admin', description: 'For operators: a bearer JWT with `role: "admin"`.' },
  { name: 'health', description: 'Liveness, readiness and Prometheus metrics.' },
  { name: 'pages', description: 'The subscribe and manage pages for people, and their files.' },
  { name: 'places', description: 'How the pages draw maps, and the address search of the subscribe page.' },
  { name: 'console', description: 'The operator console and its API (a session cookie from a sign-in, a CSRF token on every change).' },
] as const;

export type ApiTag = (typeof API_TAGS)[number]['name'];

/** Security requirements routes name in their schema (`security`). */
export const BEARER = { bearerAuth: [] };
export const MANAGE_TOKEN = { subscriptionToken: [] };

/**
 * @fastify/swagger in dynamic mode: the OpenAPI 3 document is generated
 * from the route schemas (core's and every plugin's), so it cannot drift
 * from what the service validates and answers. Registered before any route.
 */
export function openApiOptions(): FastifyDynamicSwaggerOptions {
  const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  return {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Notification pipeline',
        version,
        description:
          "Polls a utility's outage feeds and notifies subscribers through the installed delivery providers (GET /api/notification-providers). Errors have the shape " +
          '`{ statusCode, code, error, message }`; a 4xx message names the field.',
      },
      tags: API_TAGS.map((tag) => ({ ...tag })),
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'HS256 with Jwt__Secret; claim `sub` is the user, `role: "admin"` an operator.',
          },
          subscriptionToken: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Subscription-Token',
            description: 'The manage token given once when the subscription was created.',
          },
        },
      },
    },
  };
}

/**
 * Swagger UI at /docs with its files served by the service itself (no
 * CDN), under a CSP of its own: scripts from here only, no frames,
 * requests to this service only. Styles may be inline: Swagger UI sets
 * some itself (a style cannot run code; the pages' own CSP stays strict).
 */
export const docsUiOptions: FastifySwaggerUiOptions = {
  routePrefix: '/docs',
  staticCSP: [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  uiConfig: { docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 0 },
  uiHooks: {
    // Swagger UI redirects /docs/static/index.html to /docs/, but only without a query: with one, to itself, for ever.
    onRequest: async (request, reply) => {
      const [path, query] = request.url.split('?', 2);
      if (query !== undefined && path!.endsWith('/static/index.html')) return reply.redirect(path!.replace(/\/static\/index\.html$/, '/'));
    },
  },
};
