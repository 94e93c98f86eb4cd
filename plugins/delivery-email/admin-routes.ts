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
const tags = ['admin'];
const ViewQuery = Type.Object({ limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })) }, { additionalProperties: false });
// Outbox ids are bigint; JSON numbers beyond 2^53 - 1 are not held exactly (and 1e23 is no bigint at all).
const OutboxId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const RequeueBody = Type.Object(
  { ids: Type.Optional(Type.Array(OutboxId, { minItems: 1, maxItems: 1000 })) },
  { additionalProperties: false, examples: [{ ids: [1, 2] }] },
);

const DEFAULT_DEAD_SHOWN = 100;

/**
 * The operator's view of the outbox (admin JWT, checked in onRequest before the query or body): how many items are in each
 * state, the dead ones (addresses masked), and a requeue of dead items.
 * A requeued item starts again with a fresh count of attempts.
 */
export function adminRoutes(app: FastifyInstance, runtime: EmailRuntime): void {
  const { context } = runtime;

  app.get<{ Querystring: { limit?: string } }>(
    '/api/admin/email-outbox',
    {
      onRequest: context.auth.adminOnly,
      schema: {
        summary: 'The email outbox: items by state, and the dead ones',
        description: 'Dead items newest first (`limit`, default 100, at most 500), their addresses masked.',
        tags,
        querystring: ViewQuery,
        response: { 200: Type.Object({ counts: Counts, dead: Type.Array(DeadItem) }) },
      },
    },
    async (request) => {
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
      onRequest: context.auth.adminOnly,
      schema: {
        summary: 'Requeue dead emails',
        description: 'These `ids`, or every dead item (no body, or `{}`), are sent again with a fresh count of attempts.',
        tags,
        body: RequeueBody,
        response: { 200: Type.Object({ requeued: Type.Integer() }) },
      },
      // No body at all means "every dead item", like `{}`.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const requeued = await context.db.transaction(async (trx) => {
        const items = await requeueDead(trx, request.body.ids, context.now());
        await context.ledger.reopen(
          items.flatMap((item) => (item.ledgerId === null ? [] : [item.ledgerId])),
          trx,
        );
        return items;
      });
      request.log.info({ requeued: requeued.length, ids: requeued.map((item) => item.id) }, 'dead emails requeued by an admin');
      if (requeued.length > 0) runtime.outbox.wake();
      return { requeued: requeued.length };
    },
  );
}
