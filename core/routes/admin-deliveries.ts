import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { LEDGER_STATES, listDeliveries, requeueFailed, type LedgerState } from '../ledger/index.ts';
import type { Knex } from 'knex';
import { Errors } from '../errors.ts';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;
// Ledger ids are bigint; held exactly up to 2^53 - 1, so the cursor and ids stop there.
const Cursor = Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: 'The `nextAfter` of the previous page.' });
const ListQuery = Type.Object(
  {
    status: Type.Optional(Type.Union(LEDGER_STATES.map((status) => Type.Literal(status)))),
    feed: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A feed id: `utility.power-outages`.' })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: `Rows per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` })),
    after: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);
const Delivery = Type.Object({
  id: Type.Integer(),
  subscriptionId: Type.String({ description: "The subscription's publicId." }),
  feedId: Type.String(),
  eventType: Type.String(),
  sourceKey: Type.String(),
  provider: Type.String(),
  status: Type.String(),
  attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  nextAttemptAt: Type.Union([Type.String(), Type.Null()], { description: 'When a waiting delivery is tried next.' }),
  deliveredAt: Type.Union([Type.String(), Type.Null()]),
  outcome: Type.Union([Type.Literal('undelivered'), Type.Literal('gone'), Type.Null()], {
    description: "What the peer said of it: `undelivered` (a carrier's delivery report), `gone` (the destination is no more); null: nothing.",
  }),
  outcomeCode: Type.Union([Type.String(), Type.Null()], { description: "The peer's code for it: a carrier's error code, an HTTP status." }),
  outcomeAt: Type.Union([Type.String(), Type.Null()]),
});
const Page = Type.Object({
  items: Type.Array(Delivery),
  nextAfter: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `after` for the next page; null on the last one.' }),
});
const LedgerId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const RequeueBody = Type.Object(
  {
    ids: Type.Optional(Type.Array(LedgerId, { minItems: 1, maxItems: 1000 })),
    feed: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false, examples: [{ ids: [1, 2] }, { feed: 'utility.power-outages' }] },
);

type ListRequest = { Querystring: { status?: LedgerState; feed?: string; limit?: string; after?: string } };
type RequeueRequest = { Body: { ids?: number[]; feed?: string } };

export interface AdminDeliveryRouteOptions {
  readonly db: Knex;
  /** Wakes the lanes on every instance once the requeue commits. */
  readonly lanes: { notify(trx: Knex.Transaction): Promise<void> };
  /** Providers whose target delivers directly (Push): their failed rows are requeued here. */
  readonly directProviders: readonly string[];
  /** Every feed deliveries may be of: a requeue naming another is a 400, not a 200 that requeued nothing. */
  readonly feedIds: readonly string[];
}

/** The operator's view of the delivery ledger (admin JWT, checked before the query is read). */
export async function adminDeliveryRoutes(app: FastifyInstance, options: AdminDeliveryRouteOptions) {
  const checkFeed = (field: string, feedId: string | undefined) => {
    if (feedId !== undefined && !options.feedIds.includes(feedId)) {
      throw new Errors.InvalidField(`${field}: unknown feed "${feedId}" (feeds: ${options.feedIds.join(', ')})`);
    }
  };
  app.get<ListRequest>(
    '/api/admin/deliveries',
    {
      schema: {
        summary: 'List deliveries, newest first',
        description: 'Ledger rows with their last error, filtered by status and feed, a page at a time (keyset: pass `nextAfter` as `after`).',
        tags: ['admin'],
        querystring: ListQuery,
        response: { 200: Page },
      },
    },
    async (request) => {
      const limit = Number(request.query.limit ?? DEFAULT_LIMIT);
      if (limit < 1 || limit > MAX_LIMIT) throw new Errors.InvalidField(`querystring/limit must be a whole number from 1 to ${MAX_LIMIT}`);
      const items = await listDeliveries(options.db, {
        status: request.query.status,
        feedId: request.query.feed,
        limit,
        beforeId: request.query.after === undefined ? undefined : Number(request.query.after),
      });
      return { items, nextAfter: items.length === limit ? String(items.at(-1)!.id) : null };
    },
  );

  app.post<RequeueRequest>(
    '/api/admin/deliveries/requeue',
    {
      schema: {
        summary: 'Requeue failed push deliveries',
        description:
          'Failed deliveries of active subscriptions (these `ids`, or every one, of a `feed` or of all) are tried again with a fresh count of ' +
          'attempts. Only targets that deliver directly (Push): failed emails are requeued in the email outbox.',
        tags: ['admin'],
        body: RequeueBody,
        response: { 200: Type.Object({ requeued: Type.Integer() }) },
      },
      // No body at all means "every failed delivery", like `{}`.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      checkFeed('body/feed', request.body.feed);
      const ids = await options.db.transaction(async (trx) => {
        const requeued = await requeueFailed(trx, { providers: options.directProviders, ids: request.body.ids, feedId: request.body.feed });
        if (requeued.length > 0) await options.lanes.notify(trx);
        return requeued;
      });
      request.log.info({ requeued: ids.length, ids: ids.slice(0, 100) }, 'failed deliveries requeued by an admin');
      return { requeued: ids.length };
    },
  );
}
