import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installed } from '../helpers/shipped-plugins.ts';
import { contentDigests } from '../helpers/table-state.ts';
import { fillPath, queryString, startHostileHarness, type HostileHarness } from './hostile-harness.ts';
import { servicesOf } from '../../core/app.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Contracts §3: HEAD never changes state, anywhere, and neither does a
 * method a route has no handler for. Every registered route (from the app
 * itself, so later ones too) is tried with real ids and tokens (a verify
 * link that works, an unsubscribe link that works, a manage token, an
 * admin token), and every row of every table is compared before and after.
 */
describe('HEAD and unhandled methods change nothing', () => {
  let harness: HostileHarness;

  beforeAll(async () => {
    harness = await startHostileHarness();
  });
  afterAll(async () => harness?.close());

  it('on any registered route, with credentials that work', async () => {
    const { app, seeds } = harness;
    const knex = servicesOf(app).database.knex;
    const handled = new Map<string, Set<string>>();
    for (const route of app.routeInventory) {
      if (!handled.has(route.url)) handled.set(route.url, new Set());
      handled.get(route.url)!.add(route.method);
    }
    const contexts = [seeds.verifyToken, seeds.unsubscribeToken].flatMap((token) => [seeds.emailPublicId, seeds.pushPublicId].map((id) => ({ id, token })));
    const headers = { authorization: seeds.adminBearer, 'x-subscription-token': seeds.pushManageToken };
    let tried = 0;
    for (const [url, methods] of handled) {
      for (const method of METHODS.filter((candidate) => candidate === 'HEAD' || !methods.has(candidate))) {
        for (const { id, token } of contexts) {
          const request: InjectOptions = {
            method,
            url: `${fillPath(url, () => id)}${queryString([['token', token]])}`,
            headers: method === 'GET' || method === 'HEAD' ? headers : { ...headers, 'content-type': 'application/json' },
            ...(method === 'GET' || method === 'HEAD' ? {} : { payload: '{"List-Unsubscribe":"One-Click","ids":[1]}' }),
          };
          const before = await contentDigests(knex);
          const response = await app.inject(request);
          tried += 1;
          expect(response.statusCode, `${method} ${url}`).toBeLessThan(500);
          expect(await contentDigests(knex), `${method} ${url} changed stored rows`).toEqual(before);
        }
      }
    }
    expect(tried).toBeGreaterThan(50);

    // The same credentials do change state through the GET: the walk above would have seen a HEAD that ran it.
    if (!installed('delivery-email')) return;
    const verify = `/api/notification-subscriptions/${seeds.emailPublicId}/verify${queryString([['token', seeds.verifyToken]])}`;
    const before = await contentDigests(knex);
    expect((await app.inject({ method: 'GET', url: verify })).statusCode).toBe(200);
    expect(await contentDigests(knex)).not.toEqual(before);
  }, 120_000);
});
