import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Knex } from 'knex';
import Type from 'typebox';
import type { FilterCache } from '../matching/index.ts';
import { errorResponses } from '../plugin-api/response-schemas.ts';
import { FindQuery, FoundSubscription, Trace, traceOf } from '../routes/admin-trace.ts';
import { findSubscriptions, summaryOf } from '../trace/trace-store.ts';
import { stillOutItems } from '../still-out/index.ts';
import { audit } from '../audit/audit-log.ts';
import { Errors } from '../errors.ts';
import { notConfirmed } from '../ledger/index.ts';
import type { Confirmations } from '../confirmation/confirmations.ts';

export interface ConsolePeopleOptions {
  readonly db: Knex;
  readonly filters: FilterCache;
  /** The installed providers: a destination is looked up among theirs. */
  readonly providers: readonly string[];
  readonly confirmations: Pick<Confirmations, 'reached'>;
  /** Who is signed in (the hook that lets only them through has run). */
  readonly actorOf: (request: FastifyRequest) => Promise<string>;
  readonly signedIn: { onRequest: (request: FastifyRequest) => Promise<void> };
  /** The same, and the session's CSRF token checked: every route that changes something. */
  readonly change: { onRequest: onRequestHookHandler[] };
}

const tags = ['console'];

/**
 * What people told about them, for a signed-in operator: the console's
 * "Find a subscriber" (the admin trace; each trace looked at is audited,
 * since it shows what a person was sent; a search is not, and never shows
 * a destination), "Still out?" (the reports per outage), and "Not
 * confirmed" (urgent alerts a person who must confirm did not, after every
 * step of their escalation), each marked "reached by phone" by an operator, audited.
 */
export async function consolePeopleRoutes(app: FastifyInstance, options: ConsolePeopleOptions): Promise<void> {
  app.get<{ Querystring: { find: string } }>(
    '/console/api/subscribers',
    {
      ...options.signedIn,
      schema: {
        summary: 'Find subscriptions by public id, email address, phone number or push topic',
        tags,
        querystring: FindQuery,
        response: { 200: Type.Object({ items: Type.Array(FoundSubscription) }), ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ items: (await findSubscriptions(options.db, request.query.find, options.providers)).map(summaryOf) }),
  );
  app.get(
    '/console/api/still-out',
    {
      ...options.signedIn,
      schema: {
        summary: 'Reports that an outage said to be over is not, per outage, the last week, newest first',
        tags,
        response: {
          200: Type.Object({
            items: Type.Array(
              Type.Object({
                feedId: Type.String(),
                itemKey: Type.String(),
                reports: Type.Integer(),
                areas: Type.Array(Type.String()),
                lastReportAt: Type.String(),
              }),
            ),
          }),
          ...errorResponses(401),
        },
      },
    },
    async () => ({ items: await stillOutItems(options.db, 50) }),
  );
  app.get(
    '/console/api/not-confirmed',
    {
      ...options.signedIn,
      schema: {
        summary: 'Urgent alerts not confirmed after every step of their escalation: people to call, oldest first',
        tags,
        response: {
          200: Type.Object({
            items: Type.Array(
              Type.Object({
                id: Type.Integer(),
                publicId: Type.String(),
                displayName: Type.String(),
                feedId: Type.String(),
                eventType: Type.String(),
                title: Type.String(),
                steps: Type.Integer({ description: 'Escalation steps sent.' }),
                since: Type.String({ description: 'When the alert asked for its confirmation.' }),
              }),
            ),
          }),
          ...errorResponses(401),
        },
      },
    },
    async () => ({ items: await notConfirmed(options.db, 100) }),
  );
  app.post<{ Params: { id: string } }>(
    '/console/api/not-confirmed/:id/reached',
    {
      ...options.change,
      schema: {
        summary: 'An operator reached the person (by phone, or at the door): the alert leaves the list; audited',
        tags,
        params: Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) }),
        response: { 200: Type.Object({ reached: Type.Boolean() }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const actor = await options.actorOf(request);
      const id = Number(request.params.id);
      if (!(await options.confirmations.reached(id, actor))) throw new Errors.NotFound(`params/id: no alert ${id} waits for a confirmation`);
      await audit(options.db, actor, 'reached-by-phone', { confirmation: id });
      return { reached: true };
    },
  );
  app.get<{ Params: { publicId: string } }>(
    '/console/api/subscribers/:publicId/trace',
    {
      ...options.signedIn,
      schema: {
        summary: "Why a subscriber got what they got: the feed's latest events, matched or not, and each delivery's attempts",
        tags,
        params: Type.Object({ publicId: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: Trace, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const trace = await traceOf(options, request.params.publicId);
      await audit(options.db, await options.actorOf(request), 'subscriber-trace', { publicId: trace.subscription.publicId });
      return trace;
    },
  );
}
