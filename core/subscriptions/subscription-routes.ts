import Type from 'typebox';
import { Errors } from '../errors.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { manageTokenOf, type Caller } from '../http/caller-auth.ts';
import { BEARER, MANAGE_TOKEN } from '../http/openapi.ts';
import { LOCALES } from '../plugin-api/messages.ts';
import { errorResponses, noContent } from '../plugin-api/response-schemas.ts';
import {
  createBodySchema,
  createdSchema,
  type DeclaredProperties,
  PublicIdParams,
  SubscriptionSchema,
  TestResultSchema,
  UpdateBodySchema,
} from './subscription-schemas.ts';
import type { CreateRequest, SubscriptionService, UpdateRequest } from './subscription-service.ts';

export interface SubscriptionRouteOptions {
  service: SubscriptionService;
  providers: readonly string[];
  /** What the installed targets declare: their `delivery` properties, their create answers' fields. */
  deliveryProperties?: DeclaredProperties;
  createdProperties?: DeclaredProperties;
  /** Which of those `delivery` properties each provider takes (its own manifest's): another provider's is refused, never ignored. */
  propertiesOf?: ReadonlyMap<string, ReadonlySet<string>>;
  authenticate(request: FastifyRequest): Caller;
}

type ById = { Params: { publicId: string } };

const tags = ['subscriptions'];
// The manage token, the owner's bearer JWT, or an admin's.
const manageSecurity = [MANAGE_TOKEN, BEARER];

/** Thin handlers: schemas validate shapes, the service decides. */
export async function subscriptionRoutes(app: FastifyInstance, options: SubscriptionRouteOptions) {
  const { service, authenticate } = options;
  const base = '/api/notification-subscriptions';

  app.post<{ Body: CreateRequest }>(
    base,
    {
      schema: {
        summary: 'Create a subscription',
        description:
          '`delivery.provider` is any installed provider (GET /api/notification-providers says which, and what destination each takes). ' +
          'Push: active at once, on a generated topic (`subscribeUrl`). Email: inactive until the address is verified (a verification ' +
          'email is queued). The `manageToken` is shown once. With the X-Subscription-Token of an existing subscription, the new one joins it: ' +
          'the same token manages both (and is answered again); a token that manages nothing is a 403. Anonymous callers are limited per address, users per account.',
        tags,
        security: [{}, BEARER, MANAGE_TOKEN],
        body: createBodySchema(options.providers, options.deliveryProperties),
        response: { 201: createdSchema(options.createdProperties), ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const { provider, destination: _, ...extra } = request.body.delivery as { provider: string; destination?: string } & Record<string, unknown>;
      const taken = options.propertiesOf?.get(provider) ?? new Set<string>();
      const foreign = Object.keys(extra).find((name) => !taken.has(name));
      if (foreign !== undefined) throw new Errors.InvalidField(`body/delivery/${foreign} is not taken by provider ${provider}`);
      return reply.status(201).send(await service.create(request.body, authenticate(request), request.clientAddress, manageTokenOf(request)));
    },
  );

  app.get(
    '/api/subscribers/me',
    {
      schema: {
        summary: 'Every subscription one manage token manages',
        description:
          "A person's alerts: the subscriptions created with, or joined to, this X-Subscription-Token, oldest first. 401 without a token, 403 when it manages none.",
        tags,
        security: [MANAGE_TOKEN],
        response: { 200: Type.Array(SubscriptionSchema), ...errorResponses(401, 403) },
      },
    },
    async (request) => service.ofToken(manageTokenOf(request)),
  );

  app.get<ById & { Querystring: { language?: string } }>(
    `${base}/:publicId`,
    {
      schema: {
        summary: 'Read a subscription',
        tags,
        security: manageSecurity,
        params: PublicIdParams,
        querystring: Type.Object({
          language: Type.Optional(
            Type.Union(
              LOCALES.map((locale) => Type.Literal(locale.code)),
              { description: "The language of subscribeSteps (a page's own); the subscription's language by default." },
            ),
          ),
        }),
        response: { 200: SubscriptionSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.view(await service.get(request.params.publicId, authenticate(request), manageTokenOf(request)), request.query.language),
  );

  app.patch<ById & { Body: UpdateRequest }>(
    `${base}/:publicId`,
    {
      schema: {
        summary: 'Change a subscription',
        description:
          'Its `displayName` and `filter`, checked as a create checks them; a filter given replaces the old one whole. The feed and the delivery cannot change: subscribe again for those. 200 with the subscription.',
        tags,
        security: manageSecurity,
        params: PublicIdParams,
        body: UpdateBodySchema,
        response: { 200: SubscriptionSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => service.update(request.params.publicId, authenticate(request), manageTokenOf(request), request.body),
  );

  app.delete<ById>(
    `${base}/:publicId`,
    {
      schema: {
        summary: 'Delete a subscription',
        tags,
        security: manageSecurity,
        params: PublicIdParams,
        response: { 204: noContent('Deleted: nothing more is delivered to it.'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.delete(request.params.publicId, authenticate(request), manageTokenOf(request));
      return reply.status(204).send();
    },
  );

  app.post<ById>(
    `${base}/:publicId/test`,
    {
      schema: {
        summary: 'Send a test notification to this subscription',
        description: 'Through the pipeline and the ledger, whatever the filter; once per NotificationPipeline__CooldownSeconds (429 with Retry-After).',
        tags,
        security: manageSecurity,
        params: PublicIdParams,
        response: { 202: TestResultSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const result = await service.test(request.params.publicId, authenticate(request), manageTokenOf(request));
      return reply.status(202).send({ matchedSubscriptionCount: result.matchedSubscriptionCount, deliveredCount: result.deliveredCount });
    },
  );
}
