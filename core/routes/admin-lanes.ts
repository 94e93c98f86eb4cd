import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import Type from 'typebox';
import { readLanes } from '../delivery/index.ts';

const Lane = Type.Object({
  provider: Type.String(),
  waiting: Type.Integer({
    description:
      'Deliveries claimed and not yet handed to the peer (waiting, being sent, or in a transactional target such as the email outbox); counted up to 100,000 per part.',
  }),
  oldestWaitingSeconds: Type.Integer({ description: 'Seconds since the oldest of them was claimed.' }),
  ratePerSecond: Type.Union([Type.Number(), Type.Null()], {
    description: "Messages a second the lane keeps to, across every instance (NotificationPipeline__Rates__<Provider>, or the plugin's default); null: none.",
  }),
  pausedUntil: Type.Union([Type.String(), Type.Null()], { description: 'When the pause ends (the peer said to slow down: a 429, SMTP 421/451/454), or null.' }),
});

/** The delivery lanes as operators watch them (admin JWT): one per installed provider. */
export async function adminLaneRoutes(app: FastifyInstance, options: { readonly db: Knex; readonly rates: ReadonlyMap<string, number> }) {
  app.get(
    '/api/admin/delivery-lanes',
    {
      schema: {
        summary: 'Each delivery lane: waiting, oldest, rate, pause',
        description:
          'One lane per delivery provider: a slow, paused or failing provider never delays another. Read from the database, so every instance answers the same.',
        tags: ['admin'],
        response: { 200: Type.Array(Lane) },
      },
    },
    async () =>
      (await readLanes(options.db, options.rates)).map(({ provider, waiting, oldestWaitingSeconds, ratePerSecond, pausedUntil }) => ({
        provider,
        waiting,
        oldestWaitingSeconds,
        ratePerSecond,
        pausedUntil,
      })),
  );
}
