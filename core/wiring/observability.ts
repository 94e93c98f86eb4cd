import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { installCommonResponses } from '../http/common-responses.ts';
import { openApiOptions } from '../http/openapi.ts';
import { createDeliveryObserver } from '../observability/delivery-observer.ts';
import { installHttpMetrics } from '../observability/http-metrics.ts';
import { createServiceMetrics, noMetrics } from '../observability/service-metrics.ts';
import type { External, Observability, Platform } from './services.ts';

/**
 * What watches the service, before anything it watches is wired: the
 * metrics registry of this app (Metrics__Enabled), HTTP durations, the
 * common error responses of every route, and the OpenAPI
 * document, which collects the routes as they are added (so it comes
 * before them).
 */
export async function wireObservability(
  app: FastifyInstance,
  { platform, external }: { readonly platform: Platform; readonly external: External },
): Promise<Observability> {
  const settings = platform.config.Metrics;
  const log = app.log.child({ component: 'metrics' });
  const metrics = settings.Enabled ? createServiceMetrics({ cacheSeconds: settings.DatabaseCacheSeconds, log }) : noMetrics;
  const deliveries = createDeliveryObserver(external.db, metrics, log);
  external.shutdown.add('delivery metrics', () => deliveries.idle());
  if (metrics.enabled) installHttpMetrics(app, metrics);
  installCommonResponses(app);
  await app.register(fastifySwagger, openApiOptions());
  return { metrics, deliveries };
}
