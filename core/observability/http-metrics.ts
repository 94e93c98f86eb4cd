import type { FastifyInstance } from 'fastify';
import type { ServiceMetrics } from './service-metrics.ts';

/** Request durations by route pattern (`/api/notification-subscriptions/:publicId`, never the id): a bounded set of series. */
export function installHttpMetrics(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest({
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      statusCode: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
  });
}
