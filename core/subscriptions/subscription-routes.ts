import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller } from '../http/caller-auth.ts';
import { createBodySchema, CreatedSchema, errorResponses, PublicIdParams, SubscriptionSchema, TestResultSchema } from './subscription-schemas.ts';
import type { CreateRequest, SubscriptionService } from './subscription-service.ts';

export interface SubscriptionRouteOptions {
  service: SubscriptionService;
  providers: readonly string[];
  authenticate(request: FastifyRequest): Caller;
}

type ById = { Params: { publicId: string } };
const manageTokenOf = (request: FastifyRequest) => {
  const header = request.headers['x-subscription-token'];
  return typeof header === 'string' ? header : undefined;
};

/** Thin handlers: schemas validate shapes, the service decides. */
export async function subscriptionRoutes(app: FastifyInstance, options: SubscriptionRouteOptions) {
  const { service, authenticate } = options;
  const base = '/api/notification-subscriptions';

  app.post<{ Body: CreateRequest }>(
    base,
    { schema: { body: createBodySchema(options.providers), response: { 201: CreatedSchema, ...errorResponses(400, 401, 413, 415, 429) } } },
    async (request, reply) => reply.status(201).send(await service.create(request.body, authenticate(request), request.ip)),
  );

  app.get<ById>(
    `${base}/:publicId`,
    { schema: { params: PublicIdParams, response: { 200: SubscriptionSchema, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => service.view(await service.get(request.params.publicId, authenticate(request), manageTokenOf(request))),
  );

  app.delete<ById>(
    `${base}/:publicId`,
    { schema: { params: PublicIdParams, response: { ...errorResponses(400, 401, 403, 404) } } },
    async (request, reply) => {
      await service.delete(request.params.publicId, authenticate(request), manageTokenOf(request));
      return reply.status(204).send();
    },
  );

  app.post<ById>(
    `${base}/:publicId/test`,
    { schema: { params: PublicIdParams, response: { 202: TestResultSchema, ...errorResponses(400, 401, 403, 404, 409, 429) } } },
    async (request, reply) => {
      const result = await service.test(request.params.publicId, authenticate(request), manageTokenOf(request));
      return reply.status(202).send({ matchedSubscriptionCount: result.matchedSubscriptionCount, deliveredCount: result.deliveredCount });
    },
  );
}
