import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteSummary } from '../../core/http/route-guards.ts';
import { rowCounts, tableNames } from '../helpers/table-state.ts';
import { fillPath, queryString, startHostileHarness, type HostileHarness } from './hostile-harness.ts';
import { bodyText, CANONICAL_REPLACEMENTS, examplesOf, hostileString, mutationsOf } from './hostile-values.ts';
import { servicesOf } from '../../core/app.ts';

/**
 * Property: whatever a client sends to any route, the answer is never a
 * 5xx, and a 4xx stores nothing (the row count of every table is
 * unchanged). The routes come from the app itself, so a route added later,
 * in core or in a plugin, is fuzzed without touching this file.
 * Per route, first systematic cases (each part of each `examples` entry of
 * the body schema, each path parameter and each query value replaced in
 * turn by each canonical hostile value, as an admin with real ids and
 * tokens), then FUZZ_RUNS random cases (default 60), stopped early after
 * FUZZ_SECONDS_PER_ROUTE (default 20).
 */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 60);
const SECONDS_PER_ROUTE = Number(process.env.FUZZ_SECONDS_PER_ROUTE ?? 20);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('every route under hostile input', () => {
  let harness: HostileHarness;
  let tables: string[];

  beforeAll(async () => {
    harness = await startHostileHarness();
    tables = await tableNames(servicesOf(harness.app).database.knex);
  });
  afterAll(async () => harness?.close());

  function requestArbitrary(route: RouteSummary): fc.Arbitrary<InjectOptions> {
    const { seeds } = harness;
    const strings = hostileString(seeds);
    const schema = (route.schema ?? {}) as Schema;
    const paramNames = paramNamesOf(route);
    const queryKeys = Object.keys(schema.querystring?.properties ?? {});
    const tokens = fc.oneof(fc.constantFrom(seeds.verifyToken, seeds.unsubscribeToken, seeds.pushManageToken), strings);
    return fc
      .record({
        params: fc.tuple(...paramNames.map(() => fc.oneof(fc.constantFrom(seeds.pushPublicId, seeds.emailPublicId), strings))),
        query: fc.tuple(
          fc.tuple(
            ...queryKeys.map((key) =>
              fc.option(
                tokens.map((value) => [key, value] as const),
                { nil: undefined },
              ),
            ),
          ),
          fc.option(fc.tuple(strings, strings), { nil: undefined, freq: 5 }),
        ),
        authorization: fc.option(fc.constantFrom(seeds.adminBearer, seeds.adminBearer, seeds.adminBearer, seeds.userBearer, 'Bearer not.a.jwt', 'Basic YTpi'), {
          nil: undefined,
        }),
        manageToken: fc.option(fc.oneof(fc.constant(seeds.pushManageToken), strings), { nil: undefined }),
        forwardedFor: fc.option(strings, { nil: undefined, freq: 4 }),
        contentType: fc.constantFrom(
          'application/json',
          'application/json',
          'application/json',
          'application/x-www-form-urlencoded',
          'text/plain',
          'multipart/form-data; boundary=x',
        ),
        body: BODY_METHODS.has(route.method) ? fc.option(bodyText(schema.body, seeds), { nil: undefined, freq: 8 }) : fc.constant(undefined),
      })
      .map(({ params, query, authorization, manageToken, forwardedFor, contentType, body }) => {
        let index = 0;
        const url = fillPath(route.url, () => params[index++]);
        const entries = [...query[0].filter((entry) => entry !== undefined), ...(query[1] ? [query[1]] : [])];
        const headers: Record<string, string> = {};
        if (authorization) headers.authorization = authorization;
        if (manageToken !== undefined) headers['x-subscription-token'] = manageToken;
        if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
        if (body !== undefined) headers['content-type'] = contentType;
        return {
          method: route.method as InjectOptions['method'],
          url: `${url}${queryString(entries)}`,
          headers,
          ...(body !== undefined ? { payload: body } : {}),
        };
      });
  }

  type Schema = { querystring?: { properties?: Record<string, unknown> }; body?: unknown };
  const paramNamesOf = (route: RouteSummary) => [...route.url.matchAll(/:([A-Za-z0-9_]+)|\*/g)].map((match) => match[1] ?? '*');

  /** The systematic cases of a route: one hostile part at a time, everything else as a real admin request would be. */
  function systematicRequests(route: RouteSummary): InjectOptions[] {
    const { seeds } = harness;
    const schema = (route.schema ?? {}) as Schema;
    const method = route.method as InjectOptions['method'];
    const headers = { authorization: seeds.adminBearer, 'x-subscription-token': seeds.pushManageToken };
    const canonicalStrings = CANONICAL_REPLACEMENTS.filter((value): value is string => typeof value === 'string');
    const paramNames = paramNamesOf(route);
    const queryKeys = Object.keys(schema.querystring?.properties ?? {});
    const validParam = () => seeds.pushPublicId;
    const validQuery = queryKeys.map((key) => [key, seeds.verifyToken] as const);
    const url = (param: (name: string) => string, query: ReadonlyArray<readonly [string, string]>) => `${fillPath(route.url, param)}${queryString(query)}`;
    // Real ids and tokens that fit together, so a mutated body reaches the handler of a link route too.
    const contexts =
      paramNames.length + queryKeys.length === 0
        ? [{ id: seeds.pushPublicId, token: seeds.verifyToken }]
        : [seeds.verifyToken, seeds.unsubscribeToken].flatMap((token) => [seeds.pushPublicId, seeds.emailPublicId].map((id) => ({ id, token })));
    const requests: InjectOptions[] = [];
    for (const body of examplesOf(schema.body).flatMap(mutationsOf)) {
      for (const { id, token } of contexts) {
        const query = queryKeys.map((key) => [key, token] as const);
        requests.push({ method, url: url(() => id, query), headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      }
    }
    for (const name of paramNames) {
      for (const value of canonicalStrings) requests.push({ method, url: url((param) => (param === name ? value : validParam()), validQuery), headers });
    }
    for (const key of queryKeys) {
      for (const value of canonicalStrings)
        requests.push({
          method,
          url: url(
            validParam,
            validQuery.map(([k, v]) => [k, k === key ? value : v] as const),
          ),
          headers,
        });
    }
    return requests;
  }

  it('never answers 5xx, and a 4xx changes no row count', async () => {
    const { app } = harness;
    const knex = servicesOf(app).database.knex;
    // HEAD is walked by route-walk.test.ts; deletes last, so the seeds live as long as possible.
    const routes = app.routeInventory.filter((route) => route.method !== 'HEAD').sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    expect(routes.length).toBeGreaterThan(5);
    const started = Date.now();
    let cases = 0;
    const answered = new Map<RouteSummary, Set<number>>();
    const check = (route: RouteSummary) => async (request: InjectOptions) => {
      cases += 1;
      const before = await rowCounts(knex, tables);
      const response = await app.inject(request);
      if (!answered.has(route)) answered.set(route, new Set());
      answered.get(route)!.add(response.statusCode);
      const shown = `${request.method} ${String(request.url).slice(0, 200)} ${String(request.payload ?? '').slice(0, 200)}`;
      expect(response.statusCode, `${shown} → ${response.body.slice(0, 300)}`).toBeLessThan(500);
      if (response.statusCode >= 400) expect(await rowCounts(knex, tables), `${shown} → ${response.statusCode} changed rows`).toEqual(before);
    };
    for (const route of routes) {
      for (const request of systematicRequests(route)) await check(route)(request);
      await fc.assert(fc.asyncProperty(requestArbitrary(route), check(route)), {
        numRuns: RUNS_PER_ROUTE,
        interruptAfterTimeLimit: SECONDS_PER_ROUTE * 1000,
        markInterruptAsFailure: false,
      });
    }
    console.info(`fuzzed ${routes.length} routes with ${cases} requests in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // The API document promises a response schema for every status a route answers: every one seen here is declared.
    for (const [route, statuses] of answered) {
      const schema = route.schema as { hide?: boolean; response?: Record<string, unknown> } | undefined;
      if (schema?.hide) continue; // the docs UI's own files, not part of the API
      const declared = Object.keys(schema?.response ?? {});
      expect(declared, `${route.method} ${route.url} answered ${[...statuses].join(', ')}`).toEqual(expect.arrayContaining([...statuses].map(String)));
    }
  }, 600_000);
});
