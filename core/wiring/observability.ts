import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { installCommonResponses } from '../http/common-responses.ts';
import { openApiOptions } from '../http/openapi.ts';
import { createDeliveryObserver } from '../observability/delivery-observer.ts';
import { installHttpMetrics } from '../observability/http-metrics.ts';
import { createServiceMetrics, noMetrics } from '../observability/service-metrics.ts';
import type { Wiring } from './services.ts';

/**
 * What watches the service, before anything it watches is wired: the
 * metrics registry of this app (Metrics__Enabled), HTTP durations, the
 * common error responses of every route, and the OpenAPI
 * document, which collects the routes as they are added (so it comes
 * before them). Fills `wiring.observability`.
 */
async function observability(app: FastifyInstance, { wiring }: { wiring: Wiring }) {
  const settings = wiring.platform.config.Metrics;
  const log = app.log.child({ component: 'metrics' });
  const metrics = settings.Enabled ? createServiceMetrics({ cacheSeconds: settings.DatabaseCacheSeconds, log }) : noMetrics;
  const deliveries = createDeliveryObserver(wiring.external.db, metrics, log);
  wiring.external.shutdown.add('delivery metrics', () => deliveries.idle());
  if (metrics.enabled) installHttpMetrics(app, metrics);
  installCommonResponses(app);
  await app.register(fastifySwagger, openApiOptions());
  wiring.observability = { metrics, deliveries };
}

export const observabilityWiring = fp(observability, { name: 'np-observability', dependencies: ['np-external'] });
