import type { FastifyInstance } from 'fastify';
import { createEndpointChecker } from '../feeds/endpoint-checker.ts';
import { createAdminOnly, createCallerAuth, requireAdmin } from '../http/caller-auth.ts';
import { QueueRegistry } from '../queue/queue-registry.ts';
import { createLedgerAccess } from '../ledger/index.ts';
import { createSubscriptionAccess } from '../subscriptions/plugin-access.ts';
import type { CoreServices, External, Observability, Platform } from './services.ts';

/** Core's own services, before any plugin: caller auth, the endpoint checker, the ports plugins get, the queues. */
export function wireCoreServices(
  app: FastifyInstance,
  inputs: { readonly platform: Platform; readonly external: External; readonly observability: Observability },
): CoreServices {
  const { platform, external, observability } = inputs;
  const { db, wakeups, shutdown } = external;
  const endpoints = createEndpointChecker(db);
  shutdown.add('endpoint checker', () => endpoints.close());
  const queues = new QueueRegistry(wakeups, app.log.child({ component: 'queues' }), () => platform.leaseOwner.token());
  shutdown.add('queues', () => queues.stop());
  const authenticate = createCallerAuth(platform.config.Jwt.Secret);
  return {
    auth: { authenticate, requireAdmin, adminOnly: createAdminOnly(authenticate) },
    endpoints,
    subscriptionAccess: createSubscriptionAccess(db, authenticate),
    // Without metrics nobody reads what a settle observed: the plain statement, no join.
    ledgerAccess: createLedgerAccess(db, observability.metrics.enabled ? (rows) => observability.deliveries.settled(rows) : undefined, (rows) =>
      observability.deliveries.reported(rows),
    ),
    queues,
  };
}
