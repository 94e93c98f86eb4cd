import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import Type from 'typebox';
import { Errors } from '../errors.ts';
import type { FilterCache } from '../matching/index.ts';
import { errorResponses } from '../plugin-api/response-schemas.ts';
import { traceSubscriber, TRACE_EVENTS } from '../trace/subscriber-trace.ts';
import { findSubscriptions, FOUND_LIMIT, subscriptionByPublicId, summaryOf } from '../trace/trace-store.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const FoundSubscription = Type.Object({
  publicId: Type.String(),
  displayName: Type.String(),
  feedId: Type.String(),
  provider: Type.String(),
  scope: Type.String(),
  isActive: Type.Boolean(),
  createdAt: Type.String(),
});
const Attempt = Type.Object({
  attempt: Type.Integer(),
  at: Nullable(Type.String()),
  outcome: Type.String({ description: '`retrying`, `failed`, `delivered`, or `delivering` (on the wire now).' }),
  error: Nullable(Type.String()),
});
const Delivery = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  createdAt: Type.String(),
  deliveredAt: Nullable(Type.String()),
  outcome: Nullable(Type.String({ description: 'What the peer said later: `undelivered`, `gone`.' })),
  outcomeCode: Nullable(Type.String()),
  outcomeAt: Nullable(Type.String()),
  supersededBy: Nullable(Type.Integer()),
  mergedInto: Nullable(Type.Integer()),
  attempts: Type.Array(Attempt),
});
const TracedEvent = Type.Object({
  eventId: Type.Integer(),
  eventType: Type.String(),
  sourceKey: Type.String(),
  itemKey: Type.String(),
  createdAt: Type.String(),
  matched: Type.Boolean({ description: "Whether the subscription's filter matches the event." }),
  criterion: Nullable(
    Type.String({
      description:
        'What decided it: the filter criterion it failed (`where`, `feeders`, `keywords`, `eventTypes`, `fields.<id>`), or, matched, `quietHours`, `superseded`, `overBudget`, `feedPolicy`, `heldByOperator`, `discarded`, `subscribedLater`, `inactive`, `notClaimed`; null: it went.',
    }),
  ),
  reason: Nullable(Type.String()),
  deliveries: Type.Array(Delivery),
});
export const Trace = Type.Object({ subscription: FoundSubscription, events: Type.Array(TracedEvent) });
export const FindQuery = Type.Object(
  { find: Type.String({ minLength: 1, maxLength: 320, description: 'A public id, an email address, a phone number or a push topic.' }) },
  { additionalProperties: false },
);
const PublicIdParams = Type.Object({ publicId: Type.String({ minLength: 1, maxLength: 64 }) });

export interface TraceRouteOptions {
  readonly db: Knex;
  readonly filters: FilterCache;
  /** The installed providers: a destination is looked up among theirs. */
  readonly providers: readonly string[];
}

/** The trace of a subscription, or a 404 naming the id. */
export async function traceOf(options: TraceRouteOptions, publicId: string) {
  const subscription = await subscriptionByPublicId(options.db, publicId);
  if (!subscription) throw new Errors.NotFound(`params/publicId: no subscription ${publicId}`);
  return traceSubscriber(options.db, options.filters, subscription);
}

/** "Why didn't I get it?" for operators (admin JWT): find a subscriber, and trace what each recent event did for them. */
export async function adminTraceRoutes(app: FastifyInstance, options: TraceRouteOptions) {
  app.get<{ Querystring: { find: string } }>(
    '/api/admin/subscriptions',
    {
      schema: {
        summary: 'Find subscriptions by public id, email address, phone number or push topic',
        description: `At most ${FOUND_LIMIT}, newest first. A destination is matched as stored (phone numbers in E.164; spaces, dashes and brackets are ignored). Destinations are never shown.`,
        tags: ['admin'],
        querystring: FindQuery,
        response: { 200: Type.Object({ items: Type.Array(FoundSubscription) }) },
      },
    },
    async (request) => ({ items: (await findSubscriptions(options.db, request.query.find, options.providers)).map(summaryOf) }),
  );
  app.get<{ Params: { publicId: string } }>(
    '/api/admin/subscriptions/:publicId/trace',
    {
      schema: {
        summary: "Why a subscriber got what they got: the feed's latest events, matched or not, and each delivery's attempts",
        description: `The last ${TRACE_EVENTS} events of the subscription's feed, newest first, each matched or not with the criterion that decided it (judged by the subscription's filter as it is now), and for each delivery every attempt with its time and outcome.`,
        tags: ['admin'],
        params: PublicIdParams,
        response: { 200: Trace, ...errorResponses(404) },
      },
    },
    async (request) => traceOf(options, request.params.publicId),
  );
}
