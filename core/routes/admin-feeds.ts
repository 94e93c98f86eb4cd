import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import Type from 'typebox';
import { feedHealthView, type MonitoredFeed } from '../feed-health/feed-health-view.ts';
import { listFeedHealth } from '../feed-health/feed-health-repository.ts';

const Time = Type.Union([Type.String(), Type.Null()]);
const FeedHealthView = Type.Object({
  id: Type.String(),
  displayName: Type.String(),
  enabled: Type.Boolean({ description: 'Whether this service polls the feed (`<Feed>__Enabled` and the pipeline switch).' }),
  pollingIntervalSeconds: Type.Integer(),
  lastPollAt: Time,
  lastSuccessAt: Time,
  lastChangeAt: Time,
  lastError: Type.Union([Type.Object({ kind: Type.String(), message: Type.String(), at: Type.String() }), Type.Null()], {
    description: 'The latest failed poll (kept after a recovery): the error class and message, never the API key or the answer.',
  }),
  consecutiveFailures: Type.Integer(),
  stale: Type.Boolean({
    description: 'No poll has succeeded for FeedHealth__StaleAfterPolls polls in a row, or for as many polling periods (a monitor that stopped polling).',
  }),
});

/** GET /api/admin/feeds: every installed feed, with the health every instance records in the database. */
export async function adminFeedRoutes(app: FastifyInstance, options: { db: Knex; feeds: readonly MonitoredFeed[]; staleAfterPolls: number; now: () => Date }) {
  app.get(
    '/api/admin/feeds',
    {
      schema: {
        summary: 'Feed health',
        description: 'Per feed: whether it is polled, when, the last success, change and error, failures in a row, and whether it is stale.',
        tags: ['admin'],
        response: { 200: Type.Array(FeedHealthView) },
      },
    },
    async () => {
      const records = await listFeedHealth(options.db);
      const at = { now: options.now(), staleAfterPolls: options.staleAfterPolls };
      return options.feeds.map((feed) => feedHealthView(feed, records.get(feed.id), at));
    },
  );
}
