import Fastify from 'fastify';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { createAdminOnly, createCallerAuth } from './caller-auth.ts';
import { installErrorHandler } from './error-handler.ts';
import { installRouteGuards } from './route-guards.ts';

async function appWithGuards() {
  const app = Fastify();
  installErrorHandler(app, { bodyLimit: 1_048_576, maxParamLength: 100 });
  installRouteGuards(app, createAdminOnly(createCallerAuth('route-guards-secret-0123456789')));
  let changes = 0;
  // A plugin's admin route that forgot to ask for the admin hook.
  await app.register(async (scope) => {
    scope.post('/api/admin/things', { schema: { body: Type.Object({ name: Type.String() }, { additionalProperties: false }) } }, async () => ({ ok: true }));
    scope.get('/link', { config: { changesState: true } }, async () => ({ changes: (changes += 1) }));
    scope.get('/plain', async () => ({ ok: true }));
  });
  await app.ready();
  return { app, changes: () => changes };
}

describe('route guards', () => {
  it('every route under /api/admin/ authenticates first, whether it asked to or not', async () => {
    const { app } = await appWithGuards();
    const response = await app.inject({ method: 'POST', url: '/api/admin/things', payload: { wrong: 1 } });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('an admin bearer token is required');
  });

  it('the HEAD of a state-changing GET does not run its handler; other HEADs do', async () => {
    const { app, changes } = await appWithGuards();
    const head = await app.inject({ method: 'HEAD', url: '/link' });
    expect(head.statusCode).toBe(200);
    expect(changes()).toBe(0);
    expect((await app.inject({ method: 'GET', url: '/link' })).json()).toEqual({ changes: 1 });
    expect((await app.inject({ method: 'HEAD', url: '/plain' })).headers['content-type']).toContain('application/json');
  });

  it('lists every route in routeInventory', async () => {
    const { app } = await appWithGuards();
    expect(app.routeInventory.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining(['POST /api/admin/things', 'GET /link', 'HEAD /link', 'GET /plain', 'HEAD /plain']),
    );
  });
});
