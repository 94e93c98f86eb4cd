import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TAGS } from '../../core/http/openapi.ts';
import { preferredKind, provisionDatabase, type ProvisionedDatabase } from '../helpers/databases.ts';
import { startTestApp, type TestApp, EVERY_INSTALLED_PLUGIN } from '../helpers/test-app.ts';

type Operation = {
  summary?: string;
  tags?: string[];
  responses: Record<string, { content?: Record<string, unknown> }>;
  security?: Array<Record<string, unknown>>;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  tags: Array<{ name: string }>;
  components: { securitySchemes: Record<string, unknown> };
};
type RouteSchema = { hide?: boolean; response?: Record<string, unknown> };

/** `/api/x/:publicId` → `/api/x/{publicId}`: the document's way of writing a path parameter. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('the OpenAPI document and the docs UI (every shipped plugin)', () => {
  let database: ProvisionedDatabase;
  let started: TestApp;
  let app: FastifyInstance;
  let document: Document;

  beforeAll(async () => {
    database = await provisionDatabase(await preferredKind());
    started = await startTestApp({ pluginsDir: EVERY_INSTALLED_PLUGIN, database, workers: false, env: { Jwt__Secret: 'docs-jwt-secret-0123456789abcdef' } });
    app = started.app;
    const response = await app.inject('/docs/json');
    expect(response.statusCode).toBe(200);
    document = response.json();
  });
  afterAll(async () => {
    await started?.close();
    await database?.drop();
  });

  const documented = () => app.routeInventory.filter((route) => route.method !== 'HEAD' && !(route.schema as RouteSchema | undefined)?.hide);

  it('is OpenAPI 3 with the bearer JWT and the manage token header as security schemes', () => {
    expect(document.openapi).toMatch(/^3\./);
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
      subscriptionToken: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Subscription-Token' }),
    });
    expect(document.tags.map((tag) => tag.name)).toEqual(API_TAGS.map((tag) => tag.name));
  });

  it("holds every route the app registered, core's, the plugins' and the pages', with a summary, a tag and every status it declares", () => {
    const routes = documented();
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const tags = new Set(document.tags.map((tag) => tag.name));
    for (const route of routes) {
      const where = `${route.method} ${route.url}`;
      const operation = document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      expect(operation, `${where} is not in the document`).toBeDefined();
      expect(operation.summary, `${where} has no summary`).toMatch(/\w/);
      expect(operation.tags?.length, `${where} has no tag`).toBeGreaterThan(0);
      for (const tag of operation.tags!) expect(tags.has(tag), `${where}: unknown tag ${tag}`).toBe(true);
      const declared = Object.keys((route.schema as RouteSchema).response ?? {});
      expect(declared, `${where} declares no response`).toContain('500');
      expect(Object.keys(operation.responses).sort(), where).toEqual(declared.sort());
    }
    const inDocument = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(inDocument.sort()).toEqual(routes.map((route) => `${route.method} ${openApiPath(route.url)}`).sort());
  });

  it('names the statuses each kind of route answers whatever its handler does', () => {
    const operation = (method: string, path: string) => document.paths[path][method];
    expect(Object.keys(operation('post', '/api/notification-subscriptions').responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '413', '415', '429', '500']),
    );
    expect(Object.keys(operation('get', '/api/admin/deliveries').responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '500']));
    expect(Object.keys(operation('delete', '/api/notification-subscriptions/{publicId}').responses)).toEqual(
      expect.arrayContaining(['204', '401', '403', '404']),
    );
    expect(Object.keys(operation('get', '/health/ready').responses)).toEqual(expect.arrayContaining(['200', '503']));
    // A link of an email answers a person with a page and an API client with JSON.
    expect(Object.keys(operation('get', '/api/notification-subscriptions/{publicId}/verify').responses['400'].content!)).toEqual([
      'text/html',
      'application/json',
    ]);
    expect(Object.keys(operation('get', '/subscribe').responses['200'].content!)).toEqual(['text/html']);
    expect(Object.keys(operation('get', '/metrics').responses['200'].content!)).toEqual(['text/plain']);
  });

  it('says who may call what: admin routes need the bearer JWT, a subscription its manage token or its owner', () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (path.startsWith('/api/admin/')) expect(operation.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
      }
    }
    expect(document.paths['/api/notification-subscriptions/{publicId}'].get.security).toEqual([{ subscriptionToken: [] }, { bearerAuth: [] }]);
    // Anyone may create; a bearer token makes it a user's, a manage token joins the subscription it manages.
    expect(document.paths['/api/notification-subscriptions'].post.security).toEqual([{}, { bearerAuth: [] }, { subscriptionToken: [] }]);
    expect(document.paths['/api/subscribers/me'].get.security).toEqual([{ subscriptionToken: [] }]);
  });

  it('/docs/static/index.html leads to /docs/ once, with a query or without (never to itself)', async () => {
    for (const url of ['/docs/static/index.html', '/docs/static/index.html?x=1', '/docs/static/index.html?']) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(302);
      expect(response.headers.location, url).toBe('/docs/');
    }
  });

  it('GET /docs serves Swagger UI from the service itself, under a CSP of its own', async () => {
    const page = await app.inject('/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(sources.length).toBeGreaterThan(3);
    for (const source of sources) {
      expect(source, 'no CDN').not.toMatch(/^(https?:)?\/\//);
      const asset = await app.inject(new URL(source, 'http://service/docs').pathname);
      expect(asset.statusCode, source).toBe(200);
      expect(String(asset.headers['content-security-policy'])).toBe(csp);
    }
  });
});
