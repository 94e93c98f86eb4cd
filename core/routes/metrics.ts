import type { FastifyInstance } from 'fastify';
import type { ServiceMetrics } from '../observability/service-metrics.ts';
import { textResponse } from '../plugin-api/response-schemas.ts';

/** GET /metrics: Prometheus text format (Metrics__Enabled). */
export async function metricsRoutes(app: FastifyInstance, options: { metrics: ServiceMetrics }) {
  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Prometheus metrics',
        description: 'Polls, events, deliveries, the backlog, the email outbox, delivery latency, HTTP durations and the process defaults.',
        tags: ['health'],
        response: { 200: textResponse('text/plain', 'Prometheus text exposition format.') },
      },
    },
    async (_request, reply) => {
      const { contentType, body } = await options.metrics.scrape();
      return reply.type(contentType).header('cache-control', 'no-store').send(body);
    },
  );
}
