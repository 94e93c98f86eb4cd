import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createEndpointChecker } from '../feeds/endpoint-checker.ts';
import { createAdminOnly, createCallerAuth, requireAdmin } from '../http/caller-auth.ts';
import { QueueRegistry } from '../queue/queue-registry.ts';
import { createLedgerAccess, createSubscriptionAccess } from '../subscriptions/plugin-access.ts';
import type { Wiring } from './services.ts';

/** Core's own services, before any plugin: caller auth, the endpoint checker, the ports plugins get, the queues. */
async function coreServices(app: FastifyInstance, { wiring }: { wiring: Wiring }) {
  const { db, wakeups, shutdown } = wiring.external;
  const endpoints = createEndpointChecker(db);
  shutdown.add('endpoint checker', () => endpoints.close());
  const queues = new QueueRegistry(wakeups, app.log.child({ component: 'queues' }));
  shutdown.add('queues', () => queues.stop());
  const authenticate = createCallerAuth(wiring.platform.config.Jwt.Secret);
  wiring.coreServices = {
    auth: { authenticate, requireAdmin, adminOnly: createAdminOnly(authenticate) },
    endpoints,
    subscriptionAccess: createSubscriptionAccess(db, authenticate),
    // Without metrics nobody reads what a settle observed: the plain statement, no join.
    ledgerAccess: createLedgerAccess(db, wiring.observability.metrics.enabled ? (rows) => wiring.observability.deliveries.settled(rows) : undefined),
    queues,
  };
}

export const coreServicesWiring = fp(coreServices, { name: 'np-core-services', dependencies: ['np-observability'] });
