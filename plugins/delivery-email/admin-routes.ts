import type { FastifyInstance } from 'fastify';
import { Type } from '#plugin-api';
import { maskEmailAddress } from './email-address.ts';
import type { EmailRuntime } from './email-runtime.ts';
import { OUTBOX_STATES } from './outbox-policy.ts';
import { deadItems, requeueDead, stateCounts } from './outbox-repository.ts';

const Counts = Type.Object(Object.fromEntries(OUTBOX_STATES.map((state) => [state, Type.Integer()])));
const DeadItem = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  recipient: Type.String(),
  subject: Type.String(),
  attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
  updatedAt: Type.String(),
});
const ErrorBody = Type.Object({ statusCode: Type.Integer(), code: Type.String(), error: Type.String(), message: Type.String() });
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };
const ViewQuery = Type.Object({ limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })) }, { additionalProperties: false });
const RequeueBody = Type.Object({ ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 1000 })) }, { additionalProperties: false });

const DEFAULT_DEAD_SHOWN = 100;

/**
 * The operator's view of the outbox (admin JWT): how many items are in each
 * state, the dead ones (addresses masked), and a requeue of dead items.
 * A requeued item starts again with a fresh count of attempts.
 */
export function adminRoutes(app: FastifyInstance, runtime: EmailRuntime): void {
  const { context } = runtime;

  app.get<{ Querystring: { limit?: string } }>(
    '/api/admin/email-outbox',
    { schema: { querystring: ViewQuery, response: { 200: Type.Object({ counts: Counts, dead: Type.Array(DeadItem) }), ...errors } } },
    async (request) => {
      context.auth.requireAdmin(context.auth.authenticate(request));
      const limit = Math.min(500, Number(request.query.limit ?? DEFAULT_DEAD_SHOWN));
      const [counts, dead] = await Promise.all([stateCounts(context.db), deadItems(context.db, limit)]);
      return {
        counts,
        dead: dead.map((item) => ({ ...item, recipient: maskEmailAddress(item.recipient), updatedAt: item.updatedAt.toISOString() })),
      };
    },
  );

  app.post<{ Body: { ids?: number[] } }>(
    '/api/admin/email-outbox/requeue',
    {
      schema: { body: RequeueBody, response: { 200: Type.Object({ requeued: Type.Integer() }), ...errors } },
      // No body at all means "every dead item", like `{}`.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const caller = context.auth.authenticate(request);
      context.auth.requireAdmin(caller);
      const requeued = await context.db.transaction(async (trx) => {
        const items = await requeueDead(trx, request.body.ids, context.now());
        await context.ledger.reopenQueued(items.flatMap((item) => (item.ledgerId === null ? [] : [item.ledgerId])), trx);
        return items;
      });
      request.log.info({ requeued: requeued.length, ids: requeued.map((item) => item.id) }, 'dead emails requeued by an admin');
      if (requeued.length > 0) runtime.worker.wake();
      return { requeued: requeued.length };
    },
  );
}
